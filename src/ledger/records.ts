import { isFinalState, type TransactionState } from '../protocol/transaction-view.js';
import type { IntentRecord } from './record-format.js';

/**
 * An intent is written before a Payment may leave, an outcome after every answer; no record
 * holds the password in any form. Their format is record-format.ts.
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
 * A transaction's latest word, for every reader: a success is never replaced (a late "not sent"
 * is stale), a failure only by another final state, a state in progress by anything.
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
