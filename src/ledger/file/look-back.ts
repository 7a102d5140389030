import { fstatSync, readSync } from 'node:fs';
import { LocalStorageError } from '../../errors.js';
import type { TransactionState } from '../../protocol/transaction-view.js';
import type { AccountSet, LookBackQuery, RecentPayment, SetLookBackQuery } from '../ledger.js';
import { type IntentRecord, replacesOutcome } from '../records.js';
import { archiveDirectory } from './journal-files.js';
import {
  bytesStartWith,
  intentBytes,
  intentText,
  intentTime,
  OwnLineScanner,
  recordOf,
  type ScannedRecord,
  utf8OfByteText,
} from './line-format.js';
import { closeAll, type OpenedFile, openJournalFiles } from './open-for-reading.js';
import { recordOn } from './reader.js';

/**
 * One backward stream: the live files from J back (stopping at the first intent older than the
 * look-back), then the archive's files of those days, newest first, each from its end; so a
 * transaction's latest attempt is always met before its earlier ones, wherever compactions put
 * them. Damaged lines are passed over without a word: history and reconcile, which read them
 * all, warn of them.
 *
 * Two passes over that stream. The first reads intents only and keeps the latest attempts the
 * rules weigh, judged from the line before the record is read whole; most are not (other
 * accounts), and a bulk file of new accounts has none. Only then does a second pass, the same
 * stream again, read the answers, of those transactions alone, and it ends once each one's latest
 * attempt is behind it. Each file is read to the length it had in the first pass.
 */
export async function recentPayments(
  journal: string,
  query: LookBackQuery | SetLookBackQuery,
  everyAccount = false,
): Promise<RecentPayment[]> {
  const files = openJournalFiles(journal, query.since.toISOString().slice(0, 10));
  try {
    const archive = `${archiveDirectory(journal)}/`;
    for (const file of files) file.end ??= fstatSync(file.fd).size;
    const stream = {
      live: files.filter((file) => !file.path.startsWith(archive)).reverse(),
      // Closed transactions of the days the look-back reaches, filed by day and cut: newest first.
      archived: files.filter((file) => file.path.startsWith(archive)).reverse(),
    };
    const attempts = new LatestAttempts(query, everyAccount);
    readBack(stream, attempts, query.since.getTime());
    if (attempts.weighed.size === 0) return [];
    const answers = new AnswersAfter(new Set(attempts.weighed.keys()));
    readBack(stream, answers, query.since.getTime());
    return [...attempts.weighed]
      .map(([key, intent]) => ({ intent, state: answers.stateOf(key) }))
      .sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
  } catch (error) {
    throw error instanceof LocalStorageError ? error : new LocalStorageError('read the journal', journal, error);
  } finally {
    closeAll(files);
  }
}

type Intent = Extract<ScannedRecord, { kind: 'intent' }>;
type Outcome = Extract<ScannedRecord, { kind: 'outcome' }>;

/** What one pass does with the records it meets, newest first; false: the pass is over. */
interface Pass {
  /** Whether a line can be passed over from its bytes alone (never a line that could end the pass). */
  passOver(bytes: Buffer, start: number, end: number, older: boolean): boolean;
  intent(scanned: Intent, key: string): boolean;
  outcome(scanned: Outcome, key: string): boolean;
  readonly finished: boolean;
}

/** Intents of processes appending at once may be out of time order by this much, at most. */
const appendSkewMs = 60_000;

/** How every outcome line starts, the journal's own or another writer's compact JSON. */
const outcomeStart = Buffer.from('{"kind":"outcome",');

/** One pass over the stream: the live files until an intent older than the look-back, then the archive's. */
function readBack(stream: { live: OpenedFile[]; archived: OpenedFile[] }, pass: Pass, since: number): void {
  const scanner = new OwnLineScanner();
  let older = false;
  const take = (line: string) => {
    if (line === '') return true;
    const scanned = recordOn(line, scanner);
    if (typeof scanned === 'string') return true;
    const key = `${scanned.owner} ${scanned.id}`;
    if (scanned.kind === 'outcome') return pass.outcome(scanned, key);
    if (!older && Date.parse(intentTime(scanned)) < since - appendSkewMs) return false;
    return pass.intent(scanned, key);
  };
  const passOver = (bytes: Buffer, start: number, end: number) => pass.passOver(bytes, start, end, older);
  for (const file of stream.live) if (!linesBackward(file, take, passOver) || pass.finished) break;
  older = true;
  for (const file of stream.archived) if (pass.finished || !linesBackward(file, take, passOver)) break;
}

/** The first pass: each transaction's latest attempt since the look-back, of the gateway and agent, that the rules weigh. */
class LatestAttempts implements Pass {
  readonly weighed = new Map<string, IntentRecord>();
  private readonly seen = new Set<string>();
  private readonly since: number;
  /** Whether an account is weighed, asked with the account's text, or with its byte text (UTF-8 read as latin1). */
  private readonly hasAccount: (account: string) => boolean;
  private readonly hasAccountBytes: (bytes: string) => boolean;
  /** An intent written before this (ISO time) may end the pass: such a line is read whole. */
  private readonly stopBefore: string;
  readonly finished = false;

  /** `everyAccount`: the payments to any account (recent-view.ts keeps them all), not the query's alone. */
  constructor(
    private readonly query: LookBackQuery | SetLookBackQuery,
    private readonly everyAccount: boolean,
  ) {
    this.since = query.since.getTime();
    const { accounts } = query;
    if (Array.isArray(accounts)) {
      const listed = new Set<string>(accounts);
      const bytes = new Set(accounts.map((account: string) => Buffer.from(account, 'utf8').toString('latin1')));
      this.hasAccount = (account) => listed.has(account);
      this.hasAccountBytes = (account) => bytes.has(account);
    } else {
      // A set asked one account at a time (a bulk file's): no list of them is made here either.
      const set = accounts as AccountSet;
      this.hasAccount = (account) => set.has(account);
      this.hasAccountBytes = (account) => set.has(utf8OfByteText(account));
    }
    this.stopBefore = new Date(this.since - appendSkewMs).toISOString();
  }

  /**
   * Answers are the second pass's. So is an own intent to another account, when only accounts
   * are weighed: every attempt of a transaction is to the same account (the replay guard), so
   * passing its attempts over loses nothing. With the operator weighed too, an intent is read
   * whole: its transaction's later attempt, by another operator, must still hide this one.
   */
  passOver(bytes: Buffer, start: number, end: number, older: boolean): boolean {
    if (bytesStartWith(bytes, start, end, outcomeStart)) return true;
    if (this.query.operator !== undefined || this.everyAccount) return false;
    if (!older) {
      const time = intentBytes.time(bytes, start, end);
      if (time === undefined || time < this.stopBefore) return false;
    }
    const account = intentBytes.text(bytes, start, end, 'account');
    return account !== undefined && !this.hasAccountBytes(account);
  }

  outcome(): boolean {
    return true;
  }

  intent(scanned: Intent, key: string): boolean {
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    if (!this.weighs(scanned) || Date.parse(intentTime(scanned)) < this.since) return true;
    const intent = recordOf(scanned);
    if (intent.gateway === this.query.gateway && intent.agentId === this.query.agentId) this.weighed.set(key, intent);
    return true;
  }

  /** To one of the accounts, or made by the operator: read from the line, not the whole record. */
  private weighs(scanned: Intent): boolean {
    if (this.everyAccount) return true;
    const account = intentText(scanned, 'account');
    if (account !== undefined && this.hasAccount(account)) return true;
    return this.query.operator !== undefined && intentText(scanned, 'operator') === this.query.operator;
  }
}

/** The second pass: the answers to the weighed transactions after their latest attempts, until all of those are met. */
class AnswersAfter implements Pass {
  private readonly answers = new Map<string, TransactionState[]>();

  constructor(private readonly pending: Set<string>) {}

  get finished(): boolean {
    return this.pending.size === 0;
  }

  passOver(): boolean {
    return false;
  }

  outcome(scanned: Outcome, key: string): boolean {
    if (!this.pending.has(key)) return true;
    const answers = this.answers.get(key);
    if (answers === undefined) this.answers.set(key, [scanned.state]);
    else answers.push(scanned.state);
    return true;
  }

  /** The first intent met of a transaction is its latest attempt: the answers before it are to earlier ones. */
  intent(_scanned: Intent, key: string): boolean {
    this.pending.delete(key);
    return this.pending.size > 0;
  }

  /**
   * By the ledger's rules, from the answers after the latest attempt, in the order they came. An
   * answer before it (to an earlier attempt) is not read: after a failure the attempt reopens
   * the transaction (records.ts attemptReopens); after a success it changes nothing, and only a
   * "failed" answering the retry could then hide that success, which agentpay never records (a
   * retry that was not sent stays open, and a gateway answers a repeated TransactionID as the
   * same payment).
   */
  stateOf(key: string): TransactionState | undefined {
    return (this.answers.get(key) ?? []).reduceRight<TransactionState | undefined>(
      (current, next) => (replacesOutcome(current, next) ? next : current),
      undefined,
    );
  }
}

const backwardChunk = 64 * 1024;
const nothing = Buffer.alloc(0);

/**
 * Each line of a file from its end back (byte text, as the journal's readers take it); stops
 * when `visit` says so and returns false then. A last line without its newline is a write in
 * progress or torn: not a record yet, passed over. Lines are found in the bytes, and a line
 * `passOver` rejects from its first bytes never becomes a string.
 */
function linesBackward(
  file: OpenedFile,
  visit: (line: string) => boolean,
  passOver: (bytes: Buffer, start: number, end: number) => boolean,
): boolean {
  let position = file.end ?? fstatSync(file.fd).size;
  const buffer = Buffer.allocUnsafe(backwardChunk);
  // The end of a line whose start is in the chunk before (a copy: the buffer is read into again).
  let rest = nothing;
  // Until the file's last newline is met, what is read belongs to a line not ended yet.
  let unended = true;
  const take = (bytes: Buffer, start: number, end: number) => {
    const stop = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
    return passOver(bytes, start, stop) || visit(bytes.toString('latin1', start, stop));
  };
  while (position > 0) {
    const size = Math.min(backwardChunk, position);
    position -= size;
    readSync(file.fd, buffer, 0, size, position);
    const chunk = buffer.subarray(0, size);
    let end = size;
    if (unended) {
      end = chunk.lastIndexOf(0x0a);
      if (end === -1) continue;
      unended = false;
    }
    for (
      let newline = end === 0 ? -1 : chunk.lastIndexOf(0x0a, end - 1);
      newline !== -1;
      newline = end === 0 ? -1 : chunk.lastIndexOf(0x0a, end - 1)
    ) {
      // The line running on into the next chunk is put together; the others are read where they lie.
      const whole = end === size && rest.length > 0 ? Buffer.concat([chunk.subarray(newline + 1), rest]) : undefined;
      if (!(whole === undefined ? take(chunk, newline + 1, end) : take(whole, 0, whole.length))) return false;
      if (end === size) rest = nothing;
      end = newline;
    }
    rest = Buffer.concat([chunk.subarray(0, end), rest]);
  }
  return unended || take(rest, 0, rest.length);
}
