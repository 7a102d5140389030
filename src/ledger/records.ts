import { isFinalState, type TransactionState } from '../protocol/transaction-view.js';
import type { IntentRecord, OutcomeRecord } from './record-format.js';

/** An intent is written before a Payment may leave, an outcome after every answer; no record
 * holds the password in any form. Their format is record-format.ts. */
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

/** A transaction's latest word, for every reader (spec 3): a success is never replaced (a late "not sent"
 * is stale), a failure only by another final state, a state in progress by anything. */
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

/** What a purchase records before its Payment: the intent without its time, and without who made it (the ledger knows). */
export type Intent = Omit<IntentRecord, 'kind' | 'at' | 'operator' | 'host'>;

export interface Owner {
  /** The gateway's identity (protocol/gateway-identity.ts), as commands/context.ts journalGatewayOf gives it. */
  gateway: string;
  agentId: string;
}

/** What the ledger knows of one transaction: what was meant, and the last word on it. */
export interface JournalEntry {
  intent: IntentRecord;
  outcome: OutcomeRecord | undefined;
}

/** Who made a record, where the backend keeps it (PostgreSQL: always). */
export interface RecordedBy {
  operator: string;
  host: string;
}

export interface LedgerEntry extends JournalEntry {
  recordedBy?: RecordedBy | undefined;
}
