import { randomUUID } from 'node:crypto';
import type { Intent, IntentResult, RecordedBy } from '../ledger.js';
import { differingParameters } from '../records.js';
import type { ImportStore } from '../sql/import-records.js';
import { intentOfRow, intentValues, type WaitingOutcome } from '../sql/rows.js';
import * as sql from './queries.js';
import type { Statements } from './query.js';

// The local ledger's writes, inside a write transaction held already (write-turn.ts): an intent with its first
// attempt, another attempt, an outcome (a final one closes its transaction by the schema's trigger).

const overridesOf = (intent: Intent) => (intent.overrides === undefined ? null : JSON.stringify(intent.overrides));

/** A new transaction's row and first attempt; its attempt's seq, undefined when the TransactionID is taken. */
function insertNew(db: Statements, intent: Intent, at: string, by: RecordedBy, recordId: string): string | undefined {
  const made = db.get(sql.insertTransaction, intentValues(intent, at, by).slice(0, 13));
  if (made === undefined) return undefined;
  return insertAttempt(db, made.seq, intent, at, by, recordId);
}

/** An attempt at the transaction of `seq`, open again; its seq, undefined when the record id was there. */
function insertAttempt(
  db: Statements,
  seq: unknown,
  intent: Intent,
  at: string,
  by: RecordedBy,
  recordId: string,
): string | undefined {
  const attempt = db.get(sql.insertAttempt, [recordId, seq, at, by.operator, by.host, overridesOf(intent)]);
  if (attempt === undefined) return undefined;
  db.run(sql.openTransaction, [seq]);
  return String(attempt.seq);
}

/** The TransactionID taken, or another attempt at the purchase recorded with it, or a conflict. */
export function insertOrRetry(db: Statements, intent: Intent, at: string, by: RecordedBy): IntentResult {
  const attempt = insertNew(db, intent, at, by, randomUUID());
  if (attempt !== undefined) return { kind: 'new', attempt };
  const row = db.get(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId])!;
  const earlier = intentOfRow(row);
  if (differingParameters(earlier, intent).length > 0) return { kind: 'conflict', earlier };
  return { kind: 'retry', attempt: insertAttempt(db, row.seq, intent, at, by, randomUUID()) };
}

/** One outcome; false when its record id was there already. */
export function insertOutcome(db: Statements, { recordId, record, operator, host, answers }: WaitingOutcome): boolean {
  const { gateway, agentId, transactionId, at, source, view } = record;
  return (
    db.run(sql.insertOutcome, [
      recordId,
      gateway,
      agentId,
      transactionId,
      at,
      source,
      view.state,
      JSON.stringify(view),
      operator,
      host,
      answers ?? null,
    ]) > 0
  );
}

/** The import's writes (sql/import-records.ts), in the transaction `begin` and `commit` bound. */
export function importStoreOf(
  db: Statements,
  transaction: { begin(): Promise<void>; commit(): Promise<void> },
): ImportStore {
  return {
    ...transaction,
    insertIntent: async (intent, at, by, recordId) => insertNew(db, intent, at, by, recordId) !== undefined,
    selectIntent: async (intent) => {
      const row = db.get(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId]);
      return row === undefined ? undefined : { seq: row.seq, intent: intentOfRow(row) };
    },
    insertAttempt: async (seq, intent, at, by, recordId) =>
      insertAttempt(db, seq, intent, at, by, recordId) !== undefined,
    insertOutcome: async (outcome) => insertOutcome(db, outcome),
  };
}
