import { ensureLength, growable, release } from '../../packed/growable.js';
import { TransactionIndex } from '../../packed/transaction-index.js';
import { gatewayIdentity } from '../../protocol/gateway-identity.js';
import { transactionStates } from '../../protocol/transaction-view.js';
import { longPassChunkBytes } from '../../text-lines.js';
import type { PaymentRow, PaymentsQuery } from '../ledger.js';
import { attemptReopens, replacesOutcome } from '../records.js';
import { HeldPayments } from './held-payments.js';
import { intentTime, type ScannedRecord, utf8OfByteText } from './line-format.js';
import { openJournalFiles } from './open-for-reading.js';
import { type JournalWarning, scanFiles } from './reader.js';

/**
 * The payments of a span of time, light: what registry reconciliation compares (TransactionID,
 * account, amount, when, latest state), read in ONE pass over the journal. history's entries
 * (latest.ts) take two passes so that their memory stays flat however many are shown; a
 * registry is a day's payments, held in memory anyway, so holding their few fields here costs
 * less than reading a journal twice (docs/performance.md, the registry row).
 */

/**
 * What the pass knows of a transaction (by its number in the index): its intents are all before
 * `since` so far (a later one may yet be its first); it is not shown (its first intent since
 * `since` is another owner's, or at or after `until`); or it is shown.
 */
const undecided = 0;
const notShown = 1;
const shown = 2;
const noState = 0;

/**
 * Rows given at a time: an async iteration per row would cost more than the row; a few hundred
 * die young, where thousands at a time outlived the collector's young generation and piled up
 * in the old one while the registry took them.
 */
const batchSize = 256;

/** What the journal's payments of the span are, read once; yielded in order of first intent, in batches. */
export async function* journalPayments(
  journal: string,
  query: PaymentsQuery,
  warn: JournalWarning,
): AsyncGenerator<PaymentRow[]> {
  const index = new TransactionIndex();
  // Per transaction, in typed arrays (no JS value a transaction): what the pass knows of it,
  // and its latest state's number (0: none yet). The shown ones' fields are held in `held`
  // (held-payments.ts), in order of their first intent since `since` (not of first sight).
  const fates = growable(Uint8Array);
  const states = growable(Uint8Array);
  const held = new HeldPayments();
  const ownerWanted = new Map<string, boolean>();
  const [since, until] = [query.since.getTime(), query.until.getTime()];
  const [sinceText, untilText] = [query.since.toISOString(), query.until.toISOString()];
  // An outcome mostly follows its own intent: the last transaction seen is tried first.
  let [lastOwner, lastId, lastNumber] = ['', '', -1];
  try {
    // Read in this thread: the pass has nothing else to do meanwhile (reader.ts ReadRange).
    await scanFiles(
      openJournalFiles(journal, query.since.toISOString().slice(0, 10)),
      warn,
      { blocking: true, chunkBytes: longPassChunkBytes },
      (record) => {
        if (record.kind === 'outcome') {
          const number =
            record.id === lastId && record.owner === lastOwner ? lastNumber : index.get(record.owner, record.id);
          if (number === undefined || fates[number] !== shown) return;
          const current = states[number]!;
          if (replacesOutcome(current === noState ? undefined : transactionStates[current - 1], record.state))
            states[number] = 1 + transactionStates.indexOf(record.state);
          return;
        }
        const known = index.size;
        const number = index.numberOf(record.owner, record.id);
        [lastOwner, lastId, lastNumber] = [record.owner, record.id, number];
        if (number === known) {
          if (number >= fates.length) for (const array of [fates, states]) ensureLength(array, number + 1);
        } else if (fates[number] !== undecided) {
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
        fates[number] = wanted && (canonical ? at < untilText : Date.parse(at) < until) ? shown : notShown;
        if (fates[number] === shown) held.add(number, record, at);
      },
    );
    // Only the shown payments and their states are given: the rest goes before they are.
    index.release();
    release(fates);
    yield* held.batches(batchSize, (number) =>
      states[number] === noState ? 'unknown' : transactionStates[states[number]! - 1]!,
    );
  } finally {
    index.release();
    held.release();
    release(fates, states);
  }
}

type ScannedIntent = Extract<ScannedRecord, { kind: 'intent' }>;

function stringAfter(line: string, key: string): string {
  const start = line.indexOf(key) + key.length;
  return utf8OfByteText(line.slice(start, line.indexOf('"', start)));
}

/** Whether an intent's gateway and agent are the ones asked for. */
function isWanted(record: ScannedIntent, { gateway, agentId }: PaymentsQuery): boolean {
  const { content } = record;
  const owner =
    typeof content === 'string'
      ? { gateway: gatewayIdentity(stringAfter(content, '"gateway":"')), agentId: stringAfter(content, '"agentId":"') }
      : content;
  return (gateway === undefined || owner.gateway === gateway) && (agentId === undefined || owner.agentId === agentId);
}
