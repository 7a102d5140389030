import { isFinalState, type TransactionState } from '../protocol/transaction-view.js';
import type { IntentRecord } from './record-format.js';

/**
 * The journal's two records. An intent is written (and fsynced) before a Payment may leave;
 * an outcome after every answer or settlement. The last outcome of a transaction is its
 * state. No record ever holds the password, in any form. Their format, and the types, are
 * defined once in record-format.ts.
 */
export type { IntentRecord, JournalRecord, OutcomeRecord } from './record-format.js';

/** The parameters that make a purchase: a TransactionID reused with others is refused. */
export const purchaseParameters = [
  'gateway',
  'agentId',
  'service',
  'account',
  'amount',
  'currency',
  'invoiceId',
] as const;

export function differingParameters(
  a: IntentRecord,
  b: Omit<IntentRecord, 'kind' | 'at'>,
): (typeof purchaseParameters)[number][] {
  return purchaseParameters.filter((key) => a[key] !== b[key]);
}

/**
 * The ledger's rules for a transaction's latest word, one place for every reader (the journal's
 * and PostgreSQL's): a success is the gateway's word that it took the money, never replaced (a
 * "not sent" or "never made" arriving late, from a retry elsewhere or a reconcile that asked too
 * early, is stale); a failure only by another final state; a state in progress by anything.
 */
export function replacesOutcome(current: TransactionState | undefined, next: TransactionState): boolean {
  if (current === undefined) return true;
  if (current === 'success') return false;
  return !isFinalState(current) || isFinalState(next);
}

/** A new attempt (the safe retry) after a failure is open until its own answer; after a success it changes nothing. */
export const attemptReopens = (current: TransactionState | undefined): boolean => current === 'failed';

export function ownerKey(record: { gateway: string; agentId: string; transactionId: string }): string {
  return `${record.gateway} ${record.agentId} ${record.transactionId}`;
}
