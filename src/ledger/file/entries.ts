import type { HistoryEntries, HistoryFilter, JournalEntry, LedgerFilter } from '../ledger.js';
import { type IntentRecord, isFinalState, ownerKey } from '../records.js';
import { latestEntries } from './latest.js';
import { intentTime, recordOf, type ScannedRecord } from './line-format.js';
import { archiveFiles, openFiles, openJournalFiles, openLiveFiles } from './open-for-reading.js';
import { type JournalWarning, scanFiles, streamChunkBytes } from './reader.js';

/** reconcile and the replay guard read more at a time than history (reader.ts). */
const streamRead = { chunkBytes: streamChunkBytes };

type ScannedIntent = Extract<ScannedRecord, { kind: 'intent' }>;
type ScannedOutcome = Extract<ScannedRecord, { kind: 'outcome' }>;

/** An entry while the journal is read: its records are read whole only if it is kept. */
interface ScannedEntry {
  /** Order of first intent in the journal. */
  order: number;
  intent: ScannedIntent;
  outcome: ScannedOutcome | undefined;
}

/**
 * A copy of a string that holds nothing else. A line, and an id sliced from it, are slices of
 * the 256 KiB chunk read from the file: V8 keeps the whole chunk alive for as long as one of
 * them is kept (docs/performance.md, "History and reconcile at scale").
 */
const detached = (text: string): string => (text.length < 13 ? text : Buffer.from(text, 'latin1').toString('latin1'));

/** A scanned record that keeps no chunk of the file alive. */
function kept<T extends ScannedRecord>(record: T): T {
  return typeof record.content === 'string'
    ? { ...record, id: detached(record.id), content: detached(record.content) }
    : { ...record, id: detached(record.id) };
}

/**
 * Transactions by owner and id (line-format.ts ScannedRecord). A journal holds a few owners
 * and many ids, so a map per owner spares building a key string for each of its lines.
 */
class TransactionMap<V> {
  private readonly owners = new Map<string, Map<string, V>>();

  private idsOf(owner: string): Map<string, V> {
    let ids = this.owners.get(owner);
    if (ids === undefined) this.owners.set(owner, (ids = new Map()));
    return ids;
  }

  get(key: ScannedRecord): V | undefined {
    return this.owners.get(key.owner)?.get(key.id);
  }

  set(key: ScannedRecord, value: V): void {
    this.idsOf(key.owner).set(key.id, value);
  }

  delete(key: ScannedRecord): void {
    this.owners.get(key.owner)?.delete(key.id);
  }

  values(): V[] {
    return [...this.owners.values()].flatMap((ids) => [...ids.values()]);
  }
}

function wanted(intent: ScannedIntent, filter: LedgerFilter): boolean {
  return filter.since === undefined || Date.parse(intentTime(intent)) >= filter.since.getTime();
}

/** The kept entries in journal order, their records read whole. */
const entriesOf = (entries: readonly ScannedEntry[]): JournalEntry[] =>
  [...entries]
    .sort((a, b) => a.order - b.order)
    .map(({ intent, outcome }) => ({ intent: recordOf(intent), outcome: outcome && recordOf(outcome) }));

/**
 * The transactions not yet final, in journal order. Only open ones are held: a final outcome
 * drops its transaction at once, and a transaction not held is as good as closed (a later
 * intent for it is a new attempt, which opens it again), so memory follows the transactions
 * open while the journal is read, not the journal's size. What is held is copied out of the
 * file's chunks (kept).
 */
export async function openEntries(path: string, filter: LedgerFilter, warn: JournalWarning): Promise<JournalEntry[]> {
  const open = new TransactionMap<ScannedEntry>();
  let order = 0;
  // The live files only: a transaction in the archive was closed when it went there, and a
  // later intent for it (a retry) is in the live files.
  await scanFiles(openLiveFiles(path), warn, streamRead, (record) => {
    const entry = open.get(record);
    if (record.kind === 'intent') {
      // A later intent for a closed transaction is a new attempt at the same purchase (the
      // safe retry, `pay --txn-id`): its Payment may have left, so it is open until its own
      // outcome says otherwise, whatever the earlier attempt ended in (say, "not sent").
      // One not wanted by the filter is not held: a later, wanted intent may still open it.
      // An intent for an open transaction is the same attempt (or the same record again).
      if (entry === undefined && wanted(record, filter)) {
        const held = kept(record);
        open.set(held, { order: order++, intent: held, outcome: undefined });
      }
      return;
    }
    if (entry === undefined) return;
    if (isFinalState(record.state)) open.delete(record);
    else entry.outcome = kept(record);
  });
  return entriesOf(open.values());
}

/**
 * Every transaction with its latest outcome, in journal order of first intent, as history
 * filters them: streamed, in memory that does not grow with the entries (latest.ts).
 */
export async function allEntries(path: string, filter: HistoryFilter, warn: JournalWarning): Promise<HistoryEntries> {
  return latestEntries(openJournalFiles(path, filter.since?.toISOString().slice(0, 10)), filter, warn);
}

/**
 * The first intent recorded for this transaction, if any (the replay guard): in the live files
 * or in the archive, since a TransactionID once used stays used.
 */
export async function findIntent(
  path: string,
  owner: { gateway: string; agentId: string; transactionId: string },
  warn: JournalWarning,
): Promise<IntentRecord | undefined> {
  const key = ownerKey(owner);
  let found: ScannedIntent | undefined;
  const visit = (record: ScannedRecord) => {
    if (record.kind !== 'intent' || !key.endsWith(record.id) || `${record.owner} ${record.id}` !== key) return true;
    found = record;
    return false;
  };
  // The live files first, the journal itself to its end: the guard asks only whether an intent
  // exists, so it must see one appended while it reads (the archive can take a while), and a
  // line seen twice or seen before it moves changes nothing here. Cuts stop at their length
  // (cut-length.ts): a line past it is written again to the journal.
  const live = openLiveFiles(path);
  for (const file of live) if (file.path === path) delete file.end;
  await scanFiles(live, warn, streamRead, visit);
  // The archive's files one at a time: there may be many, and they never change. A cut compacted
  // meanwhile was read above through its open file, up to the same length the archive holds.
  if (found === undefined) {
    for (const archived of archiveFiles(path)) {
      await scanFiles(openFiles([archived]), warn, streamRead, visit);
      if (found) break;
    }
  }
  return found && recordOf(found);
}
