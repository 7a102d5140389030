import { type TransactionState, transactionStates } from '../protocol/transaction-view.js';
import { openJournalFiles } from './journal-files.js';
import { intentTime, type ScannedRecord, utf8OfByteText } from './line-format.js';
import { type JournalWarning, scanFiles } from './reader.js';
import { attemptReopens, replacesOutcome } from './records.js';
import { TransactionIndex } from './transaction-index.js';

/**
 * The payments of a span of time, light: what registry reconciliation compares (TransactionID,
 * account, amount, when, latest state), read in ONE pass over the journal. history's entries
 * (latest.ts) take two passes so that their memory stays flat however many are shown; a
 * registry is a day's payments, held in memory anyway, so holding their few fields here costs
 * less than reading a journal twice (docs/performance.md, target 11).
 */
export interface PaymentsQuery {
  /** Transactions whose first intent (of this span) is at or after `since` and before `until`. */
  since: Date;
  until: Date;
  /** Only this gateway's, or this agent's, when given. */
  gateway?: string | undefined;
  agentId?: string | undefined;
}

export interface PaymentRow {
  transactionId: string;
  account: string;
  amount: string;
  /** When its first intent was written. */
  at: string;
  /** The latest word (records.ts replacesOutcome); `unknown` with no outcome on record. */
  state: TransactionState;
}

const separator = '\u0001';
const noState = 0;

/** Rows given at a time: an async iteration per row would cost more than the row. */
const batchSize = 4096;

/** What the journal's payments of the span are, read once; yielded in order of first intent, in batches. */
export async function* journalPayments(journal: string, query: PaymentsQuery, warn: JournalWarning): AsyncGenerator<PaymentRow[]> {
  const index = new TransactionIndex();
  // Per transaction (its number in the index): its fields packed in one flat string; or
  // `notShown` when its first intent since `since` is another owner's or at/after `until`; or
  // undefined while its intents are all before `since` (a later one may yet be its first).
  // And its latest state's number (0: none yet).
  const packed: (string | undefined)[] = [];
  // The transactions shown, in order of their first intent since `since` (not of first sight).
  const shown: number[] = [];
  const states: number[] = [];
  const ownerWanted = new Map<string, boolean>();
  const [since, until] = [query.since.getTime(), query.until.getTime()];
  const [sinceText, untilText] = [query.since.toISOString(), query.until.toISOString()];
  // An outcome mostly follows its own intent: the last transaction seen is tried first.
  let [lastOwner, lastId, lastNumber] = ['', '', -1];
  try {
    // Read in this thread: the pass has nothing else to do meanwhile (reader.ts ReadRange).
    await scanFiles(openJournalFiles(journal, query.since.toISOString().slice(0, 10)), warn, { blocking: true }, (record) => {
      if (record.kind === 'outcome') {
        const number = record.id === lastId && record.owner === lastOwner ? lastNumber : index.get(record.owner, record.id);
        if (number === undefined || packed[number] === undefined || packed[number] === notShown) return;
        const current = states[number]!;
        if (replacesOutcome(current === noState ? undefined : transactionStates[current - 1], record.state)) states[number] = 1 + transactionStates.indexOf(record.state);
        return;
      }
      const known = index.size;
      const number = index.numberOf(record.owner, record.id);
      [lastOwner, lastId, lastNumber] = [record.owner, record.id, number];
      if (number < known && packed[number] !== undefined) {
        // A new attempt after a failure is open again until its own answer.
        const current = states[number]!;
        if (current !== noState && attemptReopens(transactionStates[current - 1])) states[number] = noState;
        return;
      }
      states[number] = noState;
      const at = intentTime(record);
      // The writer's times (toISOString) compare as text, without Date.parse; any other spelling is parsed.
      const canonical = at.length === 24 && at.endsWith('Z');
      if (canonical ? at < sinceText : !(Date.parse(at) >= since)) return;
      // Its first intent since `since` (as history's entries): shown if it is the owner's and before `until`.
      // The owner's text names one gateway and agent only when it has one space (records.ts ownerKey).
      const unambiguous = record.owner.indexOf(' ') === record.owner.lastIndexOf(' ');
      let wanted = unambiguous ? ownerWanted.get(record.owner) : undefined;
      if (wanted === undefined) {
        wanted = isWanted(record, query);
        if (unambiguous) ownerWanted.set(record.owner, wanted);
      }
      packed[number] = wanted && (canonical ? at < untilText : Date.parse(at) < until) ? packedFields(record, at) : notShown;
      if (packed[number] !== notShown) shown.push(number);
    });
  } finally {
    index.release();
  }
  let batch: PaymentRow[] = [];
  for (const number of shown) {
    const fields = packed[number]!;
    const [transactionId = '', account = '', amount = '', at = ''] = fields.split(separator);
    const state = states[number]!;
    packed[number] = undefined;
    batch.push({ transactionId, account, amount, at, state: state === noState ? 'unknown' : transactionStates[state - 1]! });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** What a transaction not shown is packed as. */
const notShown = '';

type ScannedIntent = Extract<ScannedRecord, { kind: 'intent' }>;

/**
 * An intent's TransactionID, account, amount and time as one flat string (joined, so that no
 * slice of a read line is kept alive with it). In an own line (line-format.ts) no string holds
 * a quote, so `"account":"` can only be the key.
 */
function packedFields(record: ScannedIntent, at: string): string {
  const { content } = record;
  if (typeof content !== 'string') return [content.transactionId, content.account, content.amount, at].join(separator);
  // The scanner moves any part of an id before a space into the owner: such an id is read again.
  const transactionId = record.id.length === content.indexOf('"', intentStart) - intentStart ? record.id : stringAfter(content, '"transactionId":"');
  // The account and amount come after the TransactionID, gateway, agent and service (the format table's order).
  return [transactionId, stringAfter(content, '"account":"', intentStart), stringAfter(content, '"amount":"', intentStart), at].join(separator);
}

const intentStart = '{"kind":"intent","transactionId":"'.length;

function stringAfter(line: string, key: string, from = 0): string {
  const start = line.indexOf(key, from) + key.length;
  return utf8OfByteText(line.slice(start, line.indexOf('"', start)));
}

/** Whether an intent's gateway and agent are the ones asked for. */
function isWanted(record: ScannedIntent, { gateway, agentId }: PaymentsQuery): boolean {
  const { content } = record;
  const owner = typeof content === 'string' ? { gateway: stringAfter(content, '"gateway":"'), agentId: stringAfter(content, '"agentId":"') } : content;
  return (gateway === undefined || owner.gateway === gateway) && (agentId === undefined || owner.agentId === agentId);
}
