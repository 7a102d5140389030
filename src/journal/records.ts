import type { z } from 'zod';
import type { intentRecordSchema, journalRecordSchema, outcomeRecordSchema } from './record-schemas.js';

/**
 * The journal's two records. An intent is written (and fsynced) before a Payment may leave;
 * an outcome after every answer or settlement. The last outcome of a transaction is its
 * state. No record ever holds the password, in any form. Their schemas are in
 * record-schemas.ts, loaded only for a line not in the writer's own form (line-format.ts).
 */
export type IntentRecord = z.infer<typeof intentRecordSchema>;
export type OutcomeRecord = z.infer<typeof outcomeRecordSchema>;
export type JournalRecord = z.infer<typeof journalRecordSchema>;

/** The parameters that make a purchase: a TransactionID reused with others is refused. */
export const purchaseParameters = ['gateway', 'agentId', 'service', 'account', 'amount', 'currency', 'invoiceId'] as const;

export function differingParameters(a: IntentRecord, b: Omit<IntentRecord, 'kind' | 'at'>): (typeof purchaseParameters)[number][] {
  return purchaseParameters.filter((key) => a[key] !== b[key]);
}

export { isFinalState } from '../protocol/transaction-view.js';

export function ownerKey(record: { gateway: string; agentId: string; transactionId: string }): string {
  return `${record.gateway} ${record.agentId} ${record.transactionId}`;
}
