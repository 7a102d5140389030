import { warningsField } from './amount-check.js';
import { classifyCode, type CodeClass, type CodeTable } from './codes.js';
import type { GatewayAnswer } from './envelope.js';

/**
 * The one JSON shape of a transaction, printed by pay and status. Ids and amounts are
 * strings exactly as sent or received. "unknown" means the answer was lost, or came with a code
 * this gateway's table does not classify: the payment may have been made (spec 1: use Status
 * when no response to Payment was received). Only success and failed are final.
 */
export const transactionStates = ['success', 'pending', 'failed', 'unknown'] as const;
export type TransactionState = (typeof transactionStates)[number];

export interface TransactionView {
  transactionId: string;
  requestId: string | null;
  type: string | null;
  status: string | null;
  state: TransactionState;
  message: string;
  service: string | null;
  account: string | null;
  amount: string | null;
  currency: string | null;
  exchangeRate: string | null;
  serviceCurrency: string | null;
  /** What a person should know before trusting the answer (amount-check.ts); absent when nothing. */
  warnings?: string[];
}

/** "Not found" and an unclassified code prove nothing about the money: unknown. */
const stateOfClass: Record<CodeClass, TransactionState> = {
  success: 'success',
  failed: 'failed',
  pending: 'pending',
  notFound: 'unknown',
  unclassified: 'unknown',
};

export function stateOfStatus(status: string, codes: CodeTable): TransactionState {
  return stateOfClass[classifyCode(status, codes)];
}

/** success and failed are the gateway's last word; pending and unknown are settled later. */
export const isFinalState = (state: string): boolean => state === 'success' || state === 'failed';

/** What we sent, used where the answer leaves a field out. */
export interface SentFields {
  transactionId: string;
  service?: string | undefined;
  account?: string | undefined;
  amount?: string | undefined;
  currency?: string | undefined;
}

export function viewOfAnswer(answer: GatewayAnswer, sent: SentFields, codes: CodeTable): TransactionView {
  return {
    transactionId: answer.transactionId ?? sent.transactionId,
    requestId: answer.requestId ?? null,
    type: answer.type ?? null,
    status: answer.status,
    state: stateOfStatus(answer.status, codes),
    message: answer.message,
    service: answer.service ?? sent.service ?? null,
    account: answer.account ?? sent.account ?? null,
    amount: answer.amount ?? sent.amount ?? null,
    currency: answer.currency ?? sent.currency ?? null,
    exchangeRate: answer.exchangeRate ?? null,
    serviceCurrency: answer.serviceCurrency ?? null,
    ...warningsField(answer, sent),
  };
}

/** A payment whose answer was lost: everything we know is what we sent. */
export function unknownView(sent: SentFields, type: string, message: string): TransactionView {
  return {
    transactionId: sent.transactionId,
    requestId: null,
    type,
    status: null,
    state: 'unknown',
    message,
    service: sent.service ?? null,
    account: sent.account ?? null,
    amount: sent.amount ?? null,
    currency: sent.currency ?? null,
    exchangeRate: null,
    serviceCurrency: null,
  };
}
