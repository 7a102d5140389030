import { readJournal, type JournalWarning } from './reader.js';
import { isFinalState, ownerKey, type IntentRecord, type OutcomeRecord } from './records.js';

/** What the journal knows of one transaction: what was meant, and the last word on it. */
export interface JournalEntry {
  intent: IntentRecord;
  outcome: OutcomeRecord | undefined;
}

export interface LedgerFilter {
  /** Only transactions whose intent was written at or after this instant. */
  since?: Date | undefined;
}

function wanted(intent: IntentRecord, filter: LedgerFilter): boolean {
  return filter.since === undefined || Date.parse(intent.at) >= filter.since.getTime();
}

/**
 * The transactions not yet final, in journal order. Final ones are dropped as soon as their
 * final outcome is read, so memory follows the open transactions, not the journal's size.
 */
export async function openEntries(path: string, filter: LedgerFilter, warn: JournalWarning): Promise<JournalEntry[]> {
  const open = new Map<string, JournalEntry>();
  const closed = new Set<string>();
  for await (const record of readJournal(path, warn)) {
    const key = ownerKey(record);
    if (record.kind === 'intent') {
      if (!closed.has(key) && !open.has(key) && wanted(record, filter)) open.set(key, { intent: record, outcome: undefined });
      continue;
    }
    const entry = open.get(key);
    if (isFinalState(record.view.state)) {
      open.delete(key);
      // A final outcome closes the transaction for good: a later intent for the same id
      // is the safe retry of the same purchase, already settled.
      closed.add(key);
    } else if (entry) entry.outcome = record;
  }
  return [...open.values()];
}

/** Every transaction with its latest outcome, in journal order of first intent. */
export async function allEntries(path: string, filter: LedgerFilter, warn: JournalWarning): Promise<JournalEntry[]> {
  const entries = new Map<string, JournalEntry>();
  for await (const record of readJournal(path, warn)) {
    const key = ownerKey(record);
    const entry = entries.get(key);
    if (record.kind === 'intent') {
      if (!entry && wanted(record, filter)) entries.set(key, { intent: record, outcome: undefined });
    } else if (entry && (entry.outcome === undefined || !isFinalState(entry.outcome.view.state) || isFinalState(record.view.state))) {
      // A final state is never overwritten by a later non-final one (a late duplicate answer).
      entry.outcome = record;
    }
  }
  return [...entries.values()];
}

/** The first intent recorded for this transaction, if any (the replay guard). */
export async function findIntent(path: string, owner: { gateway: string; agentId: string; transactionId: string }, warn: JournalWarning): Promise<IntentRecord | undefined> {
  const key = ownerKey(owner);
  for await (const record of readJournal(path, warn)) {
    if (record.kind === 'intent' && ownerKey(record) === key) return record;
  }
  return undefined;
}
