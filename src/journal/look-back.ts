import { fstatSync, readSync } from 'node:fs';
import { LocalStorageError } from '../errors.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import { archiveDirectory, closeAll, type OpenedFile, openJournalFiles } from './journal-files.js';
import { OwnLineScanner, recordOf, type ScannedRecord } from './line-format.js';
import { recordOn } from './reader.js';
import { type IntentRecord, replacesOutcome } from './records.js';

/**
 * The recent payments of one gateway and agent, for the desk's limits and duplicate check
 * (purchase/desk-guard.ts), read from the end of the journal back: a payment is as recent as
 * its latest attempt, and intents are appended in time order, so the first one older than the
 * look-back (less a minute for processes appending at once) ends the reading. A pay reads the
 * last minutes (or today) of the journal, not all of it. The archive (closed transactions, filed
 * by the UTC day of their last attempt) is read for the days the look-back reaches.
 */
export interface RecentPayment {
  /** The latest attempt's intent: `at` is when it was made. */
  intent: IntentRecord;
  /** By the ledger's rules (records.ts), from the answers after that attempt; none yet: undefined. */
  state: TransactionState | undefined;
}

export interface LookBackQuery {
  gateway: string;
  agentId: string;
  since: Date;
  /** Only payments of this account or made by this operator (what the limits and duplicates weigh). */
  account: string;
  operator: string;
}

/** Intents of processes appending at once may be out of time order by this much, at most. */
const appendSkewMs = 60_000;

/**
 * One backward stream: the live files from J back (stopping at the first intent older than the
 * look-back), then the archive's files of those days, newest first, each from its end; so a
 * transaction's latest attempt is always met before its earlier ones, wherever compactions put
 * them. Damaged lines are passed over without a word: history and reconcile, which read them
 * all, warn of them.
 */
export async function recentPayments(journal: string, query: LookBackQuery): Promise<RecentPayment[]> {
  const files = openJournalFiles(journal, query.since.toISOString().slice(0, 10));
  try {
    const reading = new LookBack(query);
    const archive = `${archiveDirectory(journal)}/`;
    const live = files.filter((file) => !file.path.startsWith(archive));
    for (const file of live.reverse()) if (!linesBackward(file, (line) => reading.take(line))) break;
    // Closed transactions of the days the look-back reaches, filed by day and cut: newest first.
    reading.stopAtOlder = false;
    for (const file of files.filter((file) => file.path.startsWith(archive)).reverse()) linesBackward(file, (line) => reading.take(line));
    return reading.payments.sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
  } catch (error) {
    throw error instanceof LocalStorageError ? error : new LocalStorageError('read the journal', journal, error);
  } finally {
    closeAll(files);
  }
}

/** What reading back has found: the answers seen (later ones first) by transaction, and the payments. */
class LookBack {
  readonly payments: RecentPayment[] = [];
  private readonly scanner = new OwnLineScanner();
  private readonly answers = new Map<string, TransactionState[]>();
  private readonly done = new Set<string>();
  private readonly since: number;

  constructor(private readonly query: LookBackQuery) {
    this.since = query.since.getTime();
  }

  /** Whether an intent older than the look-back ends the reading (the live files, in time order). */
  stopAtOlder = true;

  /** One line, read backward; false when reading back may stop (an intent older than the look-back). */
  take(line: string): boolean {
    if (line === '') return true;
    const scanned = recordOn(line, this.scanner);
    if (typeof scanned === 'string') return true;
    const key = `${scanned.owner} ${scanned.id}`;
    if (scanned.kind === 'outcome') {
      if (!this.done.has(key)) this.answers.set(key, [...(this.answers.get(key) ?? []), scanned.state]);
      return true;
    }
    return this.intent(scanned, key);
  }

  private intent(scanned: Extract<ScannedRecord, { kind: 'intent' }>, key: string): boolean {
    const intent = recordOf(scanned);
    const at = Date.parse(intent.at);
    if (this.stopAtOlder && at < this.since - appendSkewMs) return false;
    if (this.done.has(key)) return true;
    this.done.add(key);
    const answers = this.answers.get(key) ?? [];
    this.answers.delete(key);
    if (at < this.since || intent.gateway !== this.query.gateway || intent.agentId !== this.query.agentId) return true;
    if (intent.account !== this.query.account && intent.operator !== this.query.operator) return true;
    // The answers after this attempt, in the order they came. An answer before it (to an earlier
    // attempt) is not read: after a failure the attempt reopens the transaction (records.ts
    // attemptReopens); after a success it changes nothing, and only a "failed" answering the
    // retry could then hide that success, which agentpay never records (a retry that was not
    // sent stays open, and a gateway answers a repeated TransactionID as the same payment).
    const state = answers.reduceRight<TransactionState | undefined>((current, next) => (replacesOutcome(current, next) ? next : current), undefined);
    this.payments.push({ intent, state });
    return true;
  }
}

const backwardChunk = 64 * 1024;

/**
 * Each line of a file from its end back (byte text, as the journal's readers take it); stops
 * when `visit` says so and returns false then. A last line without its newline is a write in
 * progress or torn: not a record yet, passed over.
 */
function linesBackward(file: OpenedFile, visit: (line: string) => boolean): boolean {
  let position = file.end ?? fstatSync(file.fd).size;
  let rest = '';
  let first = true;
  while (position > 0) {
    const size = Math.min(backwardChunk, position);
    position -= size;
    const buffer = Buffer.allocUnsafe(size);
    readSync(file.fd, buffer, 0, size, position);
    const lines = (buffer.toString('latin1') + rest).split('\n');
    if (first) {
      lines.pop();
      first = false;
    }
    rest = lines.shift() ?? '';
    for (let i = lines.length - 1; i >= 0; i--) if (!visit(lines[i]!.replace(/\r$/, ''))) return false;
  }
  return first || visit(rest.replace(/\r$/, ''));
}
