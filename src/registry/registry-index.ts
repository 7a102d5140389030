import { t } from '../i18n/current.js';
import { ensureLength, growable } from '../packed/growable.js';
import { TransactionIndex } from '../packed/transaction-index.js';
import type { Finding } from './compare.js';
import { PrefixedTexts } from './prefixed-texts.js';
import { RegistryFileError, type RegistryRow } from './read.js';

/**
 * A row whose TransactionID an earlier row has: the index keeps no line a row, so the caller
 * reads the registry again for the first one's (load-index.ts), as this happens once at most.
 */
export class RepeatedRowError extends Error {
  constructor(
    readonly transactionId: string,
    readonly line: number,
  ) {
    super(`TransactionID ${transactionId} is listed again on line ${line}`);
  }
}

/**
 * The registry's rows by TransactionID, held while the ledger is streamed past them, in a few
 * dozen bytes a row outside the V8 heap, and no JS string a row (a string a row cost more than
 * the row, and made the collector's work grow with the registry): the ids in a TransactionIndex
 * (a Long in 10 packed bytes, open addressing); per row, by its number there, its day (a 16-bit
 * number into the few days of the file) and a bit for whether a ledger entry has taken it; its
 * amount in one growing byte array, and its account (read only to list the rows left, in order)
 * as prefixed-texts.ts holds them (docs/performance.md, the registry row).
 */
export class RegistryIndex {
  private readonly ids = new TransactionIndex();
  private readonly dayOf = growable(Uint16Array);
  /** Bit n: row n is taken. */
  private readonly taken = growable(Uint8Array);
  /** Row n's amount, from textStart[n] to textStart[n + 1]: a plain decimal (read.ts readAmount), one byte a character. */
  private readonly text = growable(Uint8Array);
  private readonly textStart = growable(Uint32Array);
  private textEnd = 0;
  private textView: Buffer | undefined;
  private readonly accounts = new PrefixedTexts();
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
    if (number < known) throw new RepeatedRowError(row.transactionId, row.line);
    if (number + 2 > this.textStart.length) {
      for (const array of [this.dayOf, this.textStart]) ensureLength(array, number + 2);
      ensureLength(this.taken, (this.textStart.length >> 3) + 1);
    }
    this.dayOf[number] = this.dayNumberOf(row.date, row.line);
    this.textStart[number] = this.textEnd;
    this.write(row.amount);
    this.textStart[number + 1] = this.textEnd;
    this.accounts.add(row.account);
  }

  has(transactionId: string): boolean {
    return this.ids.get(anyOwner, transactionId) !== undefined;
  }

  /** The row of a TransactionID, taken out of the index (what is left at the end is only in the registry). */
  take(transactionId: string): { date: string; amount: string } | undefined {
    // A registry lists a day's payments in the order they were made, as the ledger gives them:
    // the row after the last one taken is tried before the index.
    const number = this.ids.is(this.next, anyOwner, transactionId) ? this.next : this.ids.get(anyOwner, transactionId);
    if (number === undefined || this.isTaken(number)) return undefined;
    this.taken[number >> 3]! |= 1 << (number & 7);
    this.next = number + 1;
    return { date: this.dayNames[this.dayOf[number]!]!, amount: this.amountOf(number) };
  }

  /** The rows no ledger entry matched, of the days `select` picks, in the registry's order. */
  *left(select: (date: string) => boolean): Generator<Finding> {
    // Decided once a day, not once a row.
    const selected = this.dayNames.map(select);
    if (!selected.includes(true)) return;
    const accountOf = this.accounts.reader();
    for (let number = 0; number < this.ids.size; number++) {
      const isLeft = !this.isTaken(number) && selected[this.dayOf[number]!] === true;
      // Every row's account is read, in order: each is held as it differs from the one before.
      const account = accountOf(isLeft);
      if (!isLeft) continue;
      const [transactionId, date, registryAmount] = [
        this.ids.idOf(number),
        this.dayNames[this.dayOf[number]!]!,
        this.amountOf(number),
      ];
      yield {
        list: 'only-in-registry',
        transactionId,
        date,
        account,
        registryAmount,
        ledgerAmount: null,
        registryState: 'paid',
        ledgerState: null,
      };
    }
  }

  private isTaken(number: number): boolean {
    return (this.taken[number >> 3]! & (1 << (number & 7))) !== 0;
  }

  private amountOf(number: number): string {
    return this.bytes().toString('latin1', this.textStart[number]!, this.textStart[number + 1]!);
  }

  /** The rows' text as a Buffer, for its native decoding: made again only when rows were added since. */
  private bytes(): Buffer {
    if (this.textView?.length !== this.textEnd) this.textView = Buffer.from(this.text.buffer, 0, this.textEnd);
    return this.textView;
  }

  private dayNumberOf(date: string, line: number): number {
    // Rows come in date order: a day is looked up once, not once a row.
    if (date === this.lastDay.name) return this.lastDay.number;
    let number = this.dayNumbers.get(date);
    if (number === undefined) {
      if (this.dayNames.length > 0xffff) {
        const said = t().registry;
        throw new RegistryFileError(said.tooManyDays(said.line(this.path, line)), { hint: said.splitHint });
      }
      this.dayNumbers.set(date, (number = this.dayNames.length));
      this.dayNames.push(date);
      this.days.add(date);
    }
    this.lastDay = { name: date, number };
    return number;
  }

  /** An amount: ASCII, byte by byte. */
  private write(text: string): void {
    if (this.textEnd + text.length > this.text.length) ensureLength(this.text, this.textEnd + text.length);
    const { text: bytes } = this;
    let end = this.textEnd;
    for (let i = 0; i < text.length; i++) bytes[end++] = text.charCodeAt(i);
    this.textEnd = end;
  }
}

/** The registry's ids are one list: the index's owner is the same for all. */
const anyOwner = '';
