import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { parse } from 'csv-parse';
import { AgentpayError, errnoCodeOf, LocalStorageError, UsageError } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import { ensureLength, growable } from '../../../packed/growable.js';
import { Interned } from '../../../packed/interned.js';
import { longNumber } from '../../../packed/long-number.js';
import { PackedIds } from '../../../packed/small-indexes.js';
import { fromDecimalComma } from '../../../protocol/decimal-comma.js';
import type { ChangedRow } from '../../../render/bulk.js';
import { wordsKeptAtMost } from './bulk-rows.js';
import type { OrderStore } from './order-store.js';
import { orderCells, type ResultRow } from './results-file.js';
import { recordCells } from './results-record.js';

/**
 * The rows of an earlier run, read back from its results file as a stream of records, the last
 * line of each row winning. Only what a row's order does not say is kept, compactly: its
 * TransactionID, its state, and what it paid and its word as an index into a table of the
 * distinct values. The order's own cells must be what the results file recorded of them (a
 * file changed since is refused, run.ts); a row is made an object again when a step reads it.
 * Past `wordsKeptAtMost` distinct words (a gateway that names each payment in its Message makes
 * a word a row, ~350 bytes each) a row keeps where its record is in the file instead, and its
 * word is read again from there (the file stays open, so a rewrite renamed over it changes
 * nothing this run reads).
 */
type ResultState = ResultRow['state'];
const states: readonly ResultState[] = ['planned', 'success', 'failed', 'pending', 'unknown'];
type Said = [string | undefined, string | undefined, string | undefined, string | undefined, string | undefined];

/** Where a record is in the results file: its first byte, and its length without its line end. */
interface RecordPlace {
  start: number;
  length: number;
}

export class PriorRows {
  /** By the order's row index: 0 when the file has no line of the row, else 1 + its state's index in `states`. */
  private readonly state: Uint8Array;
  private count = 0;
  /** TransactionIDs as 64-bit integers; one written otherwise (none agentpay makes) is kept as text. */
  private readonly ids: PackedIds;
  private readonly oddIds = new Map<number, string>();
  /** An index into `saidTable`, or -1 - n: the word of the nth record whose word is read again (`places`). */
  private readonly said: Int32Array;
  private readonly saidTable = new Interned<Said>();
  private readonly placeStarts = growable(Float64Array);
  private readonly placeLengths = growable(Uint32Array);
  private places = 0;

  constructor(
    private readonly orders: OrderStore,
    private readonly file?: RecordsOnDisk,
  ) {
    this.state = new Uint8Array(orders.length);
    this.ids = new PackedIds(orders.length);
    this.said = new Int32Array(orders.length);
  }

  /** How many of the order's rows the file has a line of. */
  get size(): number {
    return this.count;
  }

  /** Whether some row's word is read again from the file (the file must then stay open). */
  get readsFile(): boolean {
    return this.places > 0;
  }

  /** A line of the row at `index` of the orders; a later line of a row replaces what an earlier one said. */
  set(index: number, id: string, state: ResultState, said: Said, place: RecordPlace): void {
    const fresh = this.state[index] === 0;
    if (fresh) this.count++;
    this.state[index] = 1 + states.indexOf(state);
    const number = longNumber(id);
    if (number === undefined || number === 0n) this.oddIds.set(index, id);
    else this.oddIds.delete(index);
    this.ids.set(index, number ?? 0n);
    const word = this.saidTable.indexWithin(said, this.file === undefined ? Number.POSITIVE_INFINITY : wordsKeptAtMost);
    if (word !== undefined) {
      this.said[index] = word;
      return;
    }
    // A line of a row that had one already takes its place.
    const kept = this.said[index]!;
    const at = !fresh && kept < 0 ? -1 - kept : this.places++;
    ensureLength(this.placeStarts, at + 1);
    ensureLength(this.placeLengths, at + 1);
    this.placeStarts[at] = place.start;
    this.placeLengths[at] = place.length;
    this.said[index] = -1 - at;
  }

  /** The row at `index` of the orders as the file has it, or undefined when it has no line of it. */
  get(index: number): ResultRow | undefined {
    const state = this.stateOf(index);
    if (state === undefined) return undefined;
    const order = this.orders.get(index);
    const [paidAmount, paidInvoiceId, voucher, status, message] = this.saidOf(index);
    return {
      line: order.line,
      key: order.key,
      service: order.service,
      account: order.account,
      currency: order.currency,
      invoiceId: order.invoiceId,
      invoicePosition: order.invoicePosition,
      amount: order.amount,
      transactionId: this.idOf(index),
      paidAmount,
      paidInvoiceId,
      voucher,
      state,
      status,
      message,
    };
  }

  /** The row's status and Message as the file has them, without making the row. */
  wordOf(index: number): [string | undefined, string | undefined] | undefined {
    if (!this.state[index]) return undefined;
    const said = this.saidOf(index);
    return [said[3], said[4]];
  }

  /** The row's TransactionID and state, without making the row (a resume asks them of every row). */
  transactionIdOf(index: number): string | undefined {
    return this.state[index] ? this.idOf(index) : undefined;
  }

  stateOf(index: number): ResultState | undefined {
    const state = this.state[index] ?? 0;
    return state === 0 ? undefined : states[state - 1];
  }

  /** Closes the file the words are read again from; none is read after. */
  release(): void {
    this.file?.close();
  }

  private saidOf(index: number): Said {
    const word = this.said[index]!;
    if (word >= 0) return this.saidTable.at(word);
    const at = -1 - word;
    return this.file!.said(this.placeStarts[at]!, this.placeLengths[at]!);
  }

  private idOf(index: number): string {
    return this.oddIds.get(index) ?? this.ids.get(index).toString();
  }
}

/** The columns of a row's word, in the order of `Said`. */
const wordColumns = ['paid-amount', 'paid-invoice-id', 'voucher', 'status', 'message'];

/**
 * The results file, open for the run's length, its records read again by where they are. A
 * step reads them in the file's order, so they are read a block at a time, as a stream would.
 */
class RecordsOnDisk {
  private block = Buffer.allocUnsafeSlow(64 * 1024);
  private blockStart = 0;
  private blockLength = 0;
  private open = true;
  private delimiter = 0x2c;
  /** By column: where its cell goes in a `Said`, or -1 (not read). */
  private slots: number[] = [];

  constructor(
    readonly fd: number,
    private readonly path: string,
  ) {}

  /** The header's delimiter and column names. */
  header(delimiter: string, names: readonly string[]): void {
    this.delimiter = delimiter.charCodeAt(0);
    const last = Math.max(...wordColumns.map((name) => names.indexOf(name)));
    this.slots = Array.from({ length: last + 1 }, (_, column) => wordColumns.indexOf(names[column]!));
  }

  said(start: number, length: number): Said {
    if (start < this.blockStart || start + length > this.blockStart + this.blockLength) this.readBlock(start, length);
    const from = start - this.blockStart;
    const cells = recordCells(this.block.subarray(from, from + length), this.delimiter, this.slots, wordColumns.length);
    return saidOf(cells);
  }

  private readBlock(start: number, length: number): void {
    if (length > this.block.length) this.block = Buffer.allocUnsafeSlow(length);
    let read = 0;
    try {
      for (let got = -1; got !== 0 && read < this.block.length; read += got)
        got = readSync(this.fd, this.block, read, this.block.length - read, start + read);
    } catch (error) {
      throw new LocalStorageError('read the results file', this.path, error);
    }
    this.blockStart = start;
    this.blockLength = read;
    if (read < length)
      throw new LocalStorageError('read the results file', this.path, new Error('the file is shorter than it was'));
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.fd);
  }
}

/** A text cell as csv.ts wrote it: the apostrophe spreadsheetSafe put before a formula's first character taken off. */
const unsafe = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);
const optional = (text: string | undefined) => (text === undefined || text === '' ? undefined : unsafe(text));
/** An amount cell as this file wrote it, with a point or a comma (never grouped): the exact decimal with a point. */
const amountCell = (text: string | undefined) => {
  const value = optional(text);
  return value === undefined ? undefined : fromDecimalComma(value);
};

/** A record's cells by its header's column names. */
function recordOf(names: readonly string[], cells: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index < names.length; index++) record[names[index]!] = cells[index] ?? '';
  return record;
}

/** What a record says the row paid, and its word, from the cells of its `wordColumns` in their order. */
const saidOf = (cells: readonly (string | undefined)[]): Said => [
  amountCell(cells[0]),
  optional(cells[1]),
  optional(cells[2]),
  optional(cells[3]),
  optional(cells[4]),
];

/**
 * The rows of an earlier run, and the rows whose order cells differ from the file's now (or
 * whose line the file no longer has). Undefined when there is no results file. What follows
 * the last line end is a line a kill cut short, never a row's first line: it is not read. When
 * some row's word is read again from the file, it stays open until `prior.release()`.
 */
export async function readResults(
  path: string,
  orders: OrderStore,
): Promise<{ prior: PriorRows; changed: ChangedRow[] } | undefined> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return undefined;
    throw new LocalStorageError('read the results file', path, error);
  }
  const records = new RecordsOnDisk(fd, path);
  let prior: PriorRows | undefined;
  try {
    const head = headOf(fd, path);
    let names: string[] = [];
    const changed = new Map<number, ChangedRow>();
    if (head.end > 0) {
      const parser = createReadStream('', { fd, autoClose: false, start: 0, end: head.end - 1 }).pipe(
        parse({ bom: true, delimiter: head.delimiter, skip_empty_lines: true, relax_column_count: true, info: true }),
      );
      let before = 0;
      for await (const { record: cells, info } of parser as AsyncIterable<{
        record: string[];
        info: { bytes: number };
      }>) {
        const place = { start: before, length: info.bytes - head.lineEnd - before };
        before = info.bytes;
        if (prior === undefined) {
          names = cells;
          records.header(head.delimiter, names);
          prior = new PriorRows(orders, records);
          continue;
        }
        take(recordOf(names, cells), place, orders, prior, changed);
      }
    }
    prior ??= new PriorRows(orders);
    return { prior, changed: [...changed.values()] };
  } catch (error) {
    records.close();
    if (error instanceof AgentpayError) throw error;
    if (errnoCodeOf(error) !== undefined) throw new LocalStorageError('read the results file', path, error);
    throw new UsageError(t().bulk.resultsUnreadable(path, (error as Error).message), {
      hint: t().bulk.resultsUnreadableHint,
    });
  } finally {
    // Kept open only for the words read again from it.
    if (prior === undefined || !prior.readsFile) records.close();
  }
}

function take(
  record: Record<string, string>,
  place: { start: number; length: number },
  orders: OrderStore,
  prior: PriorRows,
  changed: Map<number, ChangedRow>,
): void {
  const line = Number(record.line);
  const state = record.state as ResultState;
  if (!Number.isSafeInteger(line) || line < 1 || !record['transaction-id'] || !states.includes(state)) return;
  // A line the file no longer has is a change (refused); it is never kept, whatever its number.
  const index = orders.indexOfLine(line);
  if (index === -1) {
    changed.set(line, { line, changes: [] });
    return;
  }
  prior.set(index, record['transaction-id'], state, saidOf(wordColumns.map((name) => record[name])), place);
  if (changed.has(line)) return;
  const now = orderCells(orders.get(index));
  const was = orderCells({
    key: optional(record.key),
    service: unsafe(record.service ?? ''),
    account: unsafe(record.account ?? ''),
    currency: record.currency ?? '',
    invoiceId: optional(record['invoice-id']),
    invoicePosition: record.invoice ? Number(record.invoice) : undefined,
    amount: amountCell(record.amount),
  });
  const changes = Object.keys(now)
    .filter((column) => now[column] !== was[column])
    .map((column) => ({ column, was: was[column]!, now: now[column]! }));
  if (changes.length > 0) changed.set(line, { line, changes });
}

/**
 * The header's delimiter, the length of its line end (csv-parse takes the first line's for the
 * whole file), and where the last whole line ends.
 */
function headOf(fd: number, path: string): { delimiter: string; lineEnd: number; end: number } {
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(4096);
    const read = readSync(fd, first, 0, first.length, 0);
    // The character after the first column's name, `line`: the delimiter the header was written with.
    const text = first.toString('utf8', 0, read).replace(/^\uFEFF/, '');
    const after = text.charAt('line'.length);
    const newline = text.indexOf('\n');
    let end = 0;
    const block = Buffer.alloc(64 * 1024);
    for (let to = size; to > 0 && end === 0; to -= block.length) {
      const from = Math.max(0, to - block.length);
      const got = readSync(fd, block, 0, to - from, from);
      const found = block.subarray(0, got).lastIndexOf(0x0a);
      if (found !== -1) end = from + found + 1;
    }
    return {
      delimiter: after === ';' || after === '\t' ? after : ',',
      lineEnd: newline > 0 && text.charAt(newline - 1) === '\r' ? 2 : 1,
      end,
    };
  } catch (error) {
    throw new LocalStorageError('read the results file', path, error);
  }
}
