import { createHash } from 'node:crypto';
import type { Intent, RecordedBy } from '../ledger.js';
import { lineOf } from '../record-format.js';
import { differingParameters, type IntentRecord, type JournalRecord } from '../records.js';
import type { WaitingOutcome } from './rows.js';

/** What an import writes with, in either database; each write skips a record id already there. */
export interface ImportStore {
  begin(): Promise<void>;
  commit(): Promise<void>;
  /** A new transaction with its first attempt and its place among the open ones; false when the TransactionID is taken. */
  insertIntent(intent: Intent, at: string, by: RecordedBy, recordId: string): Promise<boolean>;
  /** The intent recorded for this TransactionID, with its row's seq. */
  selectIntent(intent: Intent): Promise<{ seq: unknown; intent: IntentRecord } | undefined>;
  /** Another attempt at the transaction of `seq`; false when the record id was there. */
  insertAttempt(seq: unknown, intent: Intent, at: string, by: RecordedBy, recordId: string): Promise<boolean>;
  /** An outcome; false when its record id was there. */
  insertOutcome(outcome: WaitingOutcome): Promise<boolean>;
}

/** Records committed at once while importing: a stop between two keeps what was committed. */
const perTransaction = 5_000;
// How far back a line is remembered to tell a repeat (two identical outcomes) from it; one further back is
// taken for the same record, by the same rule on every import.
const repeatsWithin = 10_000;

// Loads a journal's records in order as recorded by `by`; ids come from content, so loading twice adds nothing.
// A TransactionID held for another purchase is left out, counted.
export async function importJournalRecords(
  store: ImportStore,
  by: RecordedBy,
  records: AsyncIterable<JournalRecord>,
): Promise<{ added: number; conflicts: string[] }> {
  const seen = new Map<string, number>();
  const idOf = (record: JournalRecord) => {
    const line = lineOf(record);
    const occurrence = (seen.get(line) ?? 0) + 1;
    seen.delete(line);
    seen.set(line, occurrence);
    // A Map iterates in insertion order: the first key is the line seen longest ago.
    if (seen.size > repeatsWithin) seen.delete(seen.keys().next().value!);
    return uuidOf(`${occurrence} ${line}`);
  };
  const conflicts: string[] = [];
  // Owners whose TransactionID the ledger holds for another purchase: none of their records go in.
  const refused = new Set<string>();
  const ownerOf = (record: JournalRecord) => `${record.gateway} ${record.agentId} ${record.transactionId}`;
  let added = 0;
  let inTransaction = 0;
  await store.begin();
  for await (const record of records) {
    const recordId = idOf(record);
    if (refused.has(ownerOf(record))) continue;
    if (record.kind === 'outcome') {
      if (await store.insertOutcome({ recordId, ...by, record })) added++;
    } else {
      const { kind: _kind, at, operator, host, ...intent } = record;
      // Who made it, where the journal says (newer journals do); else who imports it.
      const madeBy = { operator: operator ?? by.operator, host: host ?? by.host };
      if (await store.insertIntent(intent, at, madeBy, recordId)) added++;
      else {
        const earlier = await store.selectIntent(intent);
        if (earlier !== undefined && differingParameters(earlier.intent, intent).length > 0) {
          conflicts.push(intent.transactionId);
          refused.add(ownerOf(record));
        } else if (earlier !== undefined && (await store.insertAttempt(earlier.seq, intent, at, madeBy, recordId)))
          added++;
      }
    }
    if (++inTransaction === perTransaction) {
      await store.commit();
      await store.begin();
      inTransaction = 0;
    }
  }
  await store.commit();
  return { added, conflicts };
}

/** A UUID (RFC 9562 version 8, "custom") from the SHA-256 of `text`: the same text, the same id. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
