import { warningsField } from './amount-check.js';
import { type CodeClass, type CodeTable, classifyCode } from './codes.js';
import type { GatewayAnswer } from './envelope.js';

// The one JSON shape of a transaction (pay, status); ids and amounts as sent or received. "unknown": the answer
// was lost or its code is unclassified, so the payment may have been made (spec 1). Only success and failed
// are final.
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

function stateOfStatus(status: string, codes: CodeTable): TransactionState {
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

// A Status answer that speaks of the transaction: its RequestID or content (spec 4.4). A refusal with neither
// refuses the look-up itself and says nothing about the payment.
export function describesTransaction(answer: GatewayAnswer): boolean {
  const requestId = answer.requestId;
  return (
    (requestId !== undefined && !/^0+$/.test(requestId)) ||
    answer.service !== undefined ||
    answer.account !== undefined ||
    answer.amount !== undefined
  );
}

// viewOfAnswer for Status: a failed code closes the payment only when the answer describes it (isRefusedLookUp).
export function viewOfStatusAnswer(answer: GatewayAnswer, sent: SentFields, codes: CodeTable): TransactionView {
  const view = viewOfAnswer(answer, sent, codes);
  return view.state === 'failed' && !describesTransaction(answer) ? { ...view, state: 'unknown' } : view;
}

/** A Status request the gateway refused (viewOfStatusAnswer): nothing learned of the payment. */
export function isRefusedLookUp(view: TransactionView, codes: CodeTable): boolean {
  return view.state === 'unknown' && view.status !== null && classifyCode(view.status, codes) === 'failed';
}

// Whether a view is the gateway's word on the payment: not a lost answer, not "not found", not a refused
// look-up. Such a word is never replaced by one of those later.
export function speaksOfPayment(view: TransactionView, codes: CodeTable): boolean {
  return view.status !== null && classifyCode(view.status, codes) !== 'notFound' && !isRefusedLookUp(view, codes);
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
