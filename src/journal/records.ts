import type { IntentRecord } from './record-format.js';

/**
 * The journal's two records. An intent is written (and fsynced) before a Payment may leave;
 * an outcome after every answer or settlement. The last outcome of a transaction is its
 * state. No record ever holds the password, in any form. Their format, and the types, are
 * defined once in record-format.ts.
 */
export type { IntentRecord, JournalRecord, OutcomeRecord } from './record-format.js';

/** The parameters that make a purchase: a TransactionID reused with others is refused. */
export const purchaseParameters = ['gateway', 'agentId', 'service', 'account', 'amount', 'currency', 'invoiceId'] as const;

export function differingParameters(a: IntentRecord, b: Omit<IntentRecord, 'kind' | 'at'>): (typeof purchaseParameters)[number][] {
  return purchaseParameters.filter((key) => a[key] !== b[key]);
}

export { isFinalState } from '../protocol/transaction-view.js';

export function ownerKey(record: { gateway: string; agentId: string; transactionId: string }): string {
  return `${record.gateway} ${record.agentId} ${record.transactionId}`;
}
