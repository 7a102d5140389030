import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { charsetOf } from '../gateway/answer-charset.js';
import type { Cassette } from '../protocol/cassette.js';
import type { ReplayMiss } from '../protocol/replay-miss.js';

/** A recorded answer as it goes back on the wire. */
export interface ReplayedAnswer {
  status: number;
  contentType: string | undefined;
  bytes: Buffer;
}

/** What a request reads like, from a form that arrived or from a cassette's recorded request. */
type Fields = (name: string) => string | undefined;

// The fields that identify a request (docs/replay.md): never TransactionID or RequestDate, new on every run,
// except for a Status, which names a transaction and nothing else.
function identifyingFields(type: string, field: Fields): [string, string][] {
  const named = (...names: string[]) => names.map((name): [string, string] => [name, field(name) ?? '']);
  // Currency too: a gateway refuses a service's wrong currency, and another's list is not this one.
  if (type === 'AccountCheck') return named('Service', 'Account', 'Currency');
  if (type === 'Payment')
    // The same Amount in another Currency is another payment: never answered with this one's outcome.
    return [...named('Service', 'Account'), ['InvoiceId', invoiceIdOf(field)], ...named('Amount', 'Currency')];
  if (type === 'Status') return named('TransactionID');
  return [];
}

/** spec 4.2: the InvoiceId is an extra field, `Extra[n].Name` = InvoiceId beside its `Extra[n].Value`. */
function invoiceIdOf(field: Fields): string {
  for (let n = 0; field(`Extra[${n}].Name`) !== undefined; n++)
    if (field(`Extra[${n}].Name`) === 'InvoiceId') return field(`Extra[${n}].Value`) ?? '';
  return '';
}

const keyOf = (type: string, fields: [string, string][]) => JSON.stringify([type, ...fields]);

/** What a TransactionID of a Payment no recording answered stands for: no recorded TransactionID. */
const unanswered = '';

// Which recorded transaction each new TransactionID stands for, so a replayed payment's Status gets the
// recorded one; kept in a JSON Lines file when given (a `status` may follow a `pay` in another run).
class ReplayedTransactions {
  private readonly recorded = new Map<string, string>();

  constructor(
    private readonly directory: string,
    private readonly path: string | undefined,
  ) {
    if (path === undefined) return;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      const entry = entryOf(line);
      if (entry?.replay === directory) this.recorded.set(entry.transactionId, entry.recorded);
    }
  }

  get(transactionId: string): string | undefined {
    return this.recorded.get(transactionId);
  }

  remember(transactionId: string, recorded: string): void {
    if (this.recorded.get(transactionId) === recorded) return;
    this.recorded.set(transactionId, recorded);
    if (this.path === undefined) return;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, `${JSON.stringify({ replay: this.directory, transactionId, recorded })}\n`);
  }
}

/** A line of the state file; undefined for one cut short by a process that stopped mid-write. */
function entryOf(line: string): { replay: string; transactionId: string; recorded: string } | undefined {
  try {
    const entry = JSON.parse(line) as Record<string, unknown>;
    const { replay, transactionId, recorded } = entry;
    if (typeof replay === 'string' && typeof transactionId === 'string' && typeof recorded === 'string')
      return { replay, transactionId, recorded };
  } catch {
    // Not a whole line: skipped, as the sandbox's state skips one.
  }
  return undefined;
}

// A directory's recordings answering requests like those recorded: matches are served in recording order, the
// last again once all were (a polled Status replays its polls), the TransactionID rewritten to the new one.
export class Replay {
  private readonly byKey = new Map<string, Cassette[]>();
  private readonly served = new Map<string, number>();
  private readonly transactions: ReplayedTransactions;
  /** How many recordings it holds. */
  readonly size: number;
  /** The requests refused, until the client of this process takes them (--replay): none kept for one by URL. */
  private readonly misses: Map<string, ReplayMiss> | undefined;

  constructor(
    cassettes: readonly Cassette[],
    readonly fallback: boolean,
    options: { directory: string; statePath?: string | undefined; keepMisses?: boolean },
  ) {
    this.misses = options.keepMisses ? new Map() : undefined;
    for (const cassette of cassettes) {
      const type = cassette.request.RequestType ?? '';
      const key = keyOf(
        type,
        identifyingFields(type, (name) => cassette.request[name]),
      );
      this.byKey.set(key, [...(this.byKey.get(key) ?? []), cassette]);
    }
    this.size = cassettes.length;
    this.transactions = new ReplayedTransactions(resolve(options.directory), options.statePath);
  }

  /** The recorded answer for this request, its TransactionID made the request's; undefined when none was recorded. */
  answer(form: URLSearchParams): ReplayedAnswer | undefined {
    const type = form.get('RequestType') ?? '';
    const field: Fields = (name) => form.get(name) ?? undefined;
    const transactionId = form.get('TransactionID') ?? '';
    let fields = identifyingFields(type, field);
    if (type === 'Status') {
      const standsFor = this.transactions.get(transactionId);
      if (standsFor === unanswered) return undefined;
      fields = [['TransactionID', standsFor ?? transactionId]];
    }
    const cassette = this.next(type, keyOf(type, fields), transactionId);
    if (cassette === undefined) {
      // A Payment no recording answered stands for no recorded payment: its Status is none of
      // theirs, even when its TransactionID is a recorded one (reused for another payment).
      if (type === 'Payment') this.transactions.remember(transactionId, unanswered);
      return undefined;
    }
    const recordedId = cassette.request.TransactionID;
    if (type === 'Payment' && recordedId !== undefined) this.transactions.remember(transactionId, recordedId);
    const contentType = cassette.answer.headers['content-type'];
    const bytes = Buffer.from(cassette.answer.body, 'base64');
    return {
      status: cassette.answer.status,
      contentType,
      bytes: recordedId === undefined ? bytes : rewriteId(bytes, contentType, recordedId, transactionId),
    };
  }

  /** The refusal's text: what was asked, and that it was never recorded. Kept for takeMiss when asked to. */
  refusal(form: URLSearchParams): string {
    const type = form.get('RequestType') ?? '(no RequestType)';
    const transactionId = form.get('TransactionID') ?? '';
    const fields = identifyingFields(type, (name) => form.get(name) ?? undefined);
    const paymentUnanswered = type === 'Status' && this.transactions.get(transactionId) === unanswered;
    this.misses?.set(keyOf(type, [['TransactionID', transactionId]]), { operation: type, fields, paymentUnanswered });
    const asked = fields.map(([name, value]) => `${name}=${value}`).join(', ');
    return `No recording of ${type}${asked === '' ? '' : ` with ${asked}`}: record it with --record, or replay with --replay-fallback\n`;
  }

  /** Whether the request of this type and TransactionID was just refused, and what it asked: told once. */
  takeMiss(type: string, transactionId: string): ReplayMiss | undefined {
    const key = keyOf(type, [['TransactionID', transactionId]]);
    const miss = this.misses?.get(key);
    this.misses?.delete(key);
    return miss;
  }

  private next(type: string, key: string, transactionId: string): Cassette | undefined {
    const recorded = this.byKey.get(key);
    if (recorded === undefined) return undefined;
    // A Payment repeated with its TransactionID gets the answer it got (spec 3, rule 2).
    const paid = type === 'Payment' ? this.transactions.get(transactionId) : undefined;
    const same = paid === undefined ? undefined : recorded.find((c) => c.request.TransactionID === paid);
    if (same !== undefined) return same;
    const count = this.served.get(key) ?? 0;
    this.served.set(key, count + 1);
    return recorded[Math.min(count, recorded.length - 1)];
  }
}

// The recorded TransactionID, wherever it stands whole, made the new one; only those bytes change: through
// latin1 for a charset that writes ASCII as ASCII, by decoding and encoding for UTF-16.
function rewriteId(bytes: Buffer, contentType: string | undefined, from: string, to: string): Buffer {
  if (from === to || !/^\d+$/.test(from)) return bytes;
  const whole = new RegExp(`(?<!\\d)${from}(?!\\d)`, 'g');
  const bigEndian = (bytes[0] === 0xfe && bytes[1] === 0xff) || /^utf-?16-?be$/i.test(charsetOf(contentType) ?? '');
  const utf16 = bigEndian || (bytes[0] === 0xff && bytes[1] === 0xfe) || /^utf-?16/i.test(charsetOf(contentType) ?? '');
  if (!utf16) return Buffer.from(bytes.toString('latin1').replace(whole, to), 'latin1');
  if (bytes.length % 2 !== 0) return bytes;
  const swapped = bigEndian ? Buffer.from(bytes).swap16() : bytes;
  const rewritten = Buffer.from(swapped.toString('utf16le').replace(whole, to), 'utf16le');
  return bigEndian ? rewritten.swap16() : rewritten;
}
