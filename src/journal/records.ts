import { z } from 'zod';
import { transactionStates } from '../protocol/transaction-view.js';

/**
 * The journal's two records. An intent is written (and fsynced) before a Payment may leave;
 * an outcome after every answer or settlement. The last outcome of a transaction is its
 * state. No record ever holds the password, in any form.
 */
const nullableText = z.string().nullable();

export const transactionViewSchema = z.object({
  transactionId: z.string(),
  requestId: nullableText,
  type: nullableText,
  status: nullableText,
  state: z.enum(transactionStates),
  message: z.string(),
  service: nullableText,
  account: nullableText,
  amount: nullableText,
  currency: nullableText,
  exchangeRate: nullableText,
  serviceCurrency: nullableText,
});

/** The gateway and agent a transaction belongs to: TransactionIDs are unique per agent. */
const ownerFields = {
  transactionId: z.string(),
  /** The base URL, or "sandbox" for the embedded sandbox (whose port changes every run). */
  gateway: z.string(),
  agentId: z.string(),
  at: z.string(),
};

export const intentRecordSchema = z.object({
  kind: z.literal('intent'),
  ...ownerFields,
  service: z.string(),
  account: z.string(),
  amount: z.string(),
  currency: z.string(),
  invoiceId: nullableText,
});

export const outcomeSources = ['payment', 'settle', 'reconcile'] as const;

export const outcomeRecordSchema = z.object({
  kind: z.literal('outcome'),
  ...ownerFields,
  source: z.enum(outcomeSources),
  view: transactionViewSchema,
});

export const journalRecordSchema = z.discriminatedUnion('kind', [intentRecordSchema, outcomeRecordSchema]);

export type IntentRecord = z.infer<typeof intentRecordSchema>;
export type OutcomeRecord = z.infer<typeof outcomeRecordSchema>;
export type JournalRecord = z.infer<typeof journalRecordSchema>;

/** The parameters that make a purchase: a TransactionID reused with others is refused. */
export const purchaseParameters = ['gateway', 'agentId', 'service', 'account', 'amount', 'currency', 'invoiceId'] as const;

export function differingParameters(a: IntentRecord, b: Omit<IntentRecord, 'kind' | 'at'>): (typeof purchaseParameters)[number][] {
  return purchaseParameters.filter((key) => a[key] !== b[key]);
}

export const isFinalState = (state: string) => state === 'success' || state === 'failed';

export function ownerKey(record: { gateway: string; agentId: string; transactionId: string }): string {
  return `${record.gateway} ${record.agentId} ${record.transactionId}`;
}
