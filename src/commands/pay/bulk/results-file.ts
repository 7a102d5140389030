import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { removeLeftover, syncDirectory, writeAll } from '../../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import type { TransactionState } from '../../../protocol/transaction-view.js';
import { type CsvColumn, type CsvNotation, csvHeader, csvRow } from '../../../render/csv.js';
import { wholeNumberText } from '../../../whole-number-text.js';
import type { OrderRow } from './order-row.js';

/**
 * The results file of a bulk run (`orders.results.csv` beside the input, or --results): one
 * line per row with its TransactionID, written before any Payment leaves, then a line appended
 * for each row as it ends. The last line of a row is its word. It is written whole to a
 * temporary file, fsynced and renamed over the old one (at the start and the end of a run), and
 * appended to in between (the lines of rows that end together in one write(2)), so a SIGKILL at
 * any point leaves every row's TransactionID on disk; a line cut short by the kill is the last
 * one and is passed over. A row's word a kill kept from the file is in the ledger, and the next
 * run takes it from there. It is written in the order file's notation (its delimiter, and a
 * decimal comma when the order file's amounts have one); a later run reads the delimiter from
 * its header line and either decimal mark in its amounts, so a resume reads back the exact
 * amounts whatever notation wrote them.
 */
type ResultState = 'planned' | TransactionState;

export interface ResultRow {
  line: number;
  key: string | undefined;
  service: string;
  account: string;
  currency: string;
  invoiceId: string | undefined;
  invoicePosition: number | undefined;
  /** The amount as the input gave it, an exact decimal with a point (a decimal comma read as one). */
  amount: string | undefined;
  transactionId: string;
  /** What the Payment carries: the voucher's OrderAmount or the static amount; empty until known. */
  paidAmount: string | undefined;
  paidInvoiceId: string | undefined;
  voucher: string | undefined;
  state: ResultState;
  status: string | undefined;
  message: string | undefined;
}

/** A number's cell made afresh, not through V8's cache of number texts (whole-number-text.ts). */
const cell = (value: string | number | undefined | null) =>
  value === undefined || value === null ? '' : typeof value === 'number' ? wholeNumberText(value) : value;

const columns: CsvColumn<ResultRow>[] = [
  { header: 'line', kind: 'number', value: (row) => cell(row.line) },
  { header: 'key', kind: 'text', value: (row) => row.key },
  { header: 'service', kind: 'text', value: (row) => row.service },
  { header: 'account', kind: 'text', value: (row) => row.account },
  { header: 'currency', kind: 'text', value: (row) => row.currency },
  { header: 'invoice-id', kind: 'id', value: (row) => row.invoiceId },
  { header: 'invoice', kind: 'number', value: (row) => cell(row.invoicePosition) },
  { header: 'amount', kind: 'number', value: (row) => row.amount },
  { header: 'transaction-id', kind: 'id', value: (row) => row.transactionId },
  { header: 'paid-amount', kind: 'number', value: (row) => row.paidAmount },
  { header: 'paid-invoice-id', kind: 'id', value: (row) => row.paidInvoiceId },
  { header: 'voucher', kind: 'text', value: (row) => row.voucher },
  { header: 'state', kind: 'id', value: (row) => row.state },
  { header: 'status', kind: 'text', value: (row) => row.status },
  { header: 'message', kind: 'text', value: (row) => row.message },
];

/** `orders.csv` → `orders.results.csv`, beside it; any input gives a CSV results file. */
export function resultsPathOf(input: string): string {
  const extension = extname(input);
  return join(dirname(input), `${basename(input, extension)}.results.csv`);
}

/** The cells of an order a later run must find unchanged, by column name. */
export function orderCells(
  row: Pick<OrderRow, 'key' | 'service' | 'account' | 'currency' | 'invoiceId' | 'invoicePosition' | 'amount'>,
): Record<string, string> {
  return {
    key: cell(row.key),
    service: row.service,
    account: row.account,
    currency: row.currency,
    'invoice-id': cell(row.invoiceId),
    invoice: cell(row.invoicePosition),
    amount: cell(row.amount),
  };
}

/**
 * Text as UTF-8 in one buffer, used again for each piece written: with a Buffer a piece, the
 * rewrite of a file of 1,000,000 rows made some 2,300 of 64 KiB in one go, freed only when V8
 * next swept them (~35 MB held at once, at the start of a run and at its end). A row's line goes
 * into the buffer as soon as it is made: joined to the lines before it as a string first, the
 * rewrite at the start of a paid run of 200,000 rows peaked ~16 MB higher (Node 20), the whole
 * run ~17 MB.
 */
class Encoder {
  private buffer = Buffer.allocUnsafeSlow(256 * 1024);
  private used = 0;

  /** Adds `text` to the piece for `fd`, writing the piece out first when `text` may not fit. */
  add(fd: number, text: string): void {
    // Three bytes at most a UTF-16 unit (a surrogate pair is four for two).
    if (this.used + text.length * 3 > this.buffer.length) this.flush(fd);
    if (text.length * 3 > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(text.length * 3);
    this.used += this.buffer.write(text, this.used, 'utf8');
  }

  /** Bytes added and not written yet. */
  get held(): number {
    return this.used;
  }

  flush(fd: number): void {
    const used = this.used;
    this.used = 0;
    if (used > 0) writeAll(fd, this.buffer.subarray(0, used));
  }

  /** Drops what is held, unwritten. */
  drop(): void {
    this.used = 0;
  }
}

/** The results file (or its lock beside it) cannot be written: exit 6, with a hint that names --results. */
export function resultsFileError(path: string, cause: unknown, consequence?: string): LocalStorageError {
  const hint = t().bulk.resultsFileHint;
  return new LocalStorageError('write the results file', path, cause, consequence ? { hint, consequence } : { hint });
}

/** Bytes of appended lines that are written at once, whether or not the turn of the event loop ended. */
const pendingLimit = 64 * 1024;

/** The results file while a run writes it. */
export class ResultsWriter {
  private fd: number | undefined;
  /** Holds the lines appended in this turn of the event loop, written together once it ends. */
  private readonly encoder = new Encoder();
  private flushing: NodeJS.Immediate | undefined;
  private failure: LocalStorageError | undefined;
  constructor(
    readonly path: string,
    private readonly notation: CsvNotation = {},
  ) {}

  /** Writes every row whole (temporary file, fsync, rename, directory fsync), then appends from there. */
  rewrite(rows: Iterable<ResultRow>): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      // Every word still waiting (and one whose write failed) is in the rows written now.
      this.closeFile();
      const fd = openSync(temporary, 'w');
      try {
        this.encoder.add(fd, csvHeader(columns, this.notation));
        for (const row of rows) this.encoder.add(fd, csvRow(columns, row, this.notation));
        this.encoder.flush(fd);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
      syncDirectory(dirname(this.path));
      this.fd = openSync(this.path, 'a');
    } catch (error) {
      // A temporary file a full disk cut short is no results file: nothing of it is left behind.
      removeLeftover(temporary);
      if (errnoCodeOf(error) === undefined) throw error;
      throw resultsFileError(this.path, error);
    }
  }

  /**
   * A row's new word. The lines of rows ending together go out in one write(2), made once the
   * rows of this turn of the event loop are done: a kill leaves them whole or the last one cut
   * short, which a later run passes over (and the ledger holds every row's word anyway). A write
   * that failed is thrown by the next append, or by rewrite or close.
   */
  append(row: ResultRow): void {
    if (this.fd === undefined) return;
    this.throwFailure();
    const fd = this.fd;
    this.writing(() => this.encoder.add(fd, csvRow(columns, row, this.notation)));
    // Rows that end without waiting on anything (a resume's skipped rows) may all end in one
    // turn of the event loop: their lines go out every 64 KiB, not all at its end.
    if (this.encoder.held >= pendingLimit) this.flush();
    else this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    clearImmediate(this.flushing);
    this.flushing = undefined;
    const fd = this.fd;
    if (fd !== undefined) this.writing(() => this.encoder.flush(fd));
  }

  /** A write of appended lines; one that failed is kept for the next append, rewrite or close to throw. */
  private writing(write: () => void): void {
    try {
      write();
    } catch (error) {
      if (errnoCodeOf(error) === undefined) throw error;
      this.failure ??= resultsFileError(this.path, error);
    }
  }

  private throwFailure(): void {
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    throw failure;
  }

  close(): void {
    this.flush();
    const failure = this.failure;
    this.closeFile();
    if (failure !== undefined) throw failure;
  }

  private closeFile(): void {
    clearImmediate(this.flushing);
    this.flushing = undefined;
    this.encoder.drop();
    this.failure = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
