import { ensureLength, growable } from '../journal/growable.js';
import { TransactionIndex } from '../journal/transaction-index.js';
import type { Finding } from './compare.js';
import { RegistryFileError, type RegistryRow } from './read.js';

/**
 * The registry's rows by TransactionID, held while the ledger is streamed past them, in a few
 * dozen bytes a row outside the V8 heap, and no JS string a row (a string a row cost more than
 * the row, and made the collector's work grow with the registry): the ids in a TransactionIndex
 * (a Long in 10 packed bytes, open addressing); per row, by its number there, its day (a number
 * into the few days of the file), its line, and whether a ledger entry has taken it; its amount
 * and account as UTF-8 in one growing byte array (docs/performance.md, the registry row).
 */
export class RegistryIndex {
  private readonly ids = new TransactionIndex();
  private readonly dayOf = growable(Uint32Array);
  private readonly lineOf = growable(Uint32Array);
  private readonly taken = growable(Uint8Array);
  /** Row n's amount, a space and its account, from textStart[n] to textStart[n + 1]. */
  private readonly text = growable(Uint8Array);
  private readonly textStart = growable(Uint32Array);
  private textEnd = 0;
  private textView: Buffer | undefined;
  private readonly dayNames: string[] = [];
  private readonly dayNumbers = new Map<string, number>();
  private lastDay = { name: '', number: -1 };
  /** The row after the last one taken. */
  private next = 0;
  /** The days the registry's rows are dated. */
  readonly days = new Set<string>();

  constructor(private readonly path: string) {}

  add(row: RegistryRow): void {
    const known = this.ids.size;
    const number = this.ids.numberOf(anyOwner, row.transactionId);
    if (number < known) {
      throw new RegistryFileError(
        `registry ${this.path} line ${row.line}: TransactionID ${row.transactionId} is listed again (first on line ${this.lineOf[number]}); the registry contradicts itself`,
        { hint: 'ask the provider for a corrected registry; nothing was compared' },
      );
    }
    if (number + 2 > this.textStart.length) for (const array of [this.dayOf, this.lineOf, this.taken, this.textStart]) ensureLength(array, number + 2);
    this.dayOf[number] = this.dayNumberOf(row.date);
    this.lineOf[number] = row.line;
    this.taken[number] = 0;
    this.textStart[number] = this.textEnd;
    this.write(row.amount);
    this.write(' ');
    this.write(row.account);
    this.textStart[number + 1] = this.textEnd;
  }

  has(transactionId: string): boolean {
    return this.ids.get(anyOwner, transactionId) !== undefined;
  }

  /** The row of a TransactionID, taken out of the index (what is left at the end is only in the registry). */
  take(transactionId: string): { date: string; amount: string } | undefined {
    // A registry lists a day's payments in the order they were made, as the ledger gives them:
    // the row after the last one taken is tried before the index.
    const number = this.ids.is(this.next, anyOwner, transactionId) ? this.next : this.ids.get(anyOwner, transactionId);
    if (number === undefined || this.taken[number] === 1) return undefined;
    this.taken[number] = 1;
    this.next = number + 1;
    return { date: this.dayNames[this.dayOf[number]!]!, amount: this.amountOf(number) };
  }

  /** The rows no ledger entry matched, in the registry's order. */
  *left(): Generator<Finding> {
    for (let number = 0; number < this.ids.size; number++) {
      if (this.taken[number] === 1) continue;
      const [transactionId, date, registryAmount] = [this.ids.idOf(number), this.dayNames[this.dayOf[number]!]!, this.amountOf(number)];
      const account = this.bytes().toString('utf8', this.textStart[number]! + registryAmount.length + 1, this.textStart[number + 1]);
      yield { list: 'only-in-registry', transactionId, date, account, registryAmount, ledgerAmount: null, registryState: 'paid', ledgerState: null };
    }
  }

  /** A row's amount: a plain decimal (read.ts readAmount), so one byte a character. */
  private amountOf(number: number): string {
    const bytes = this.bytes();
    const start = this.textStart[number]!;
    return bytes.toString('latin1', start, bytes.indexOf(space, start));
  }

  /** The rows' text as a Buffer, for its native decoding: made again only when rows were added since. */
  private bytes(): Buffer {
    if (this.textView?.length !== this.textEnd) this.textView = Buffer.from(this.text.buffer, 0, this.textEnd);
    return this.textView;
  }

  private dayNumberOf(date: string): number {
    // Rows come in date order: a day is looked up once, not once a row.
    if (date === this.lastDay.name) return this.lastDay.number;
    let number = this.dayNumbers.get(date);
    if (number === undefined) {
      this.dayNumbers.set(date, (number = this.dayNames.length));
      this.dayNames.push(date);
      this.days.add(date);
    }
    this.lastDay = { name: date, number };
    return number;
  }

  private write(text: string): void {
    // UTF-8 takes at most three bytes for each UTF-16 unit.
    if (this.textEnd + text.length * 3 > this.text.length) ensureLength(this.text, this.textEnd + text.length * 3);
    // ASCII (amounts always, accounts mostly) byte by byte: no view made of the bytes for it.
    const { text: bytes } = this;
    let end = this.textEnd;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.textEnd += utf8Encoder.encodeInto(text, bytes.subarray(this.textEnd)).written;
        return;
      }
      bytes[end++] = code;
    }
    this.textEnd = end;
  }
}

/** The registry's ids are one list: the index's owner is the same for all. */
const anyOwner = '';
const space = 0x20;
const utf8Encoder = new TextEncoder();
