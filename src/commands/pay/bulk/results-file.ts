import { closeSync, fsyncSync, openSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { removeLeftover, syncDirectory, writeAll } from '../../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import type { BulkOrder, BulkPlan } from '../../../ledger/bulk-run.js';
import type { TransactionState } from '../../../protocol/transaction-view.js';
import { type CsvColumn, type CsvNotation, csvHeader, csvRow } from '../../../render/csv.js';
import type { OrderRow } from './order-row.js';

/**
 * The results file of a bulk run (`orders.results.csv` beside the input, or --results): an
 * output for the user, written afresh by each run (its header before any Payment leaves), a
 * line for each row as it ends, in the file's order, and one for each row the run did not reach,
 * as the ledger has it. agentpay never reads it back: a run's state is the ledger's
 * (ledger/bulk-run.ts). It is written in the order file's notation (its delimiter, and a
 * decimal comma when the order file's amounts have one).
 */
type ResultState = 'planned' | TransactionState;

/** A row's order, what it pays (the voucher's OrderAmount or the static amount; empty until known), and how it ended. */
export interface ResultRow extends BulkOrder, Pick<BulkPlan, 'paidAmount' | 'paidInvoiceId' | 'voucher'> {
  transactionId: string;
  state: ResultState;
  status: string | undefined;
  message: string | undefined;
}

const cell = (value: string | number | undefined | null) =>
  value === undefined || value === null ? '' : String(value);

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

/** Text as UTF-8 in one buffer, used again for each piece written. */
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

  /** Starts the file afresh with its header, synced: before any Payment leaves. A file it could not write is not left. */
  start(): void {
    try {
      this.fd = openSync(this.path, 'w');
      this.encoder.add(this.fd, csvHeader(columns, this.notation));
      this.encoder.flush(this.fd);
      fsyncSync(this.fd);
      syncDirectory(dirname(this.path));
    } catch (error) {
      const made = this.fd !== undefined;
      this.closeFile();
      if (made) removeLeftover(this.path);
      if (errnoCodeOf(error) === undefined) throw error;
      throw resultsFileError(this.path, error);
    }
  }

  /**
   * A row's line. The lines of rows ending together go out in one write(2), made once the rows
   * of this turn of the event loop are done. A write that failed is thrown by the next append,
   * or by close.
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

  /** A write of appended lines; one that failed is kept for the next append or close to throw. */
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
    if (this.fd !== undefined) this.writing(() => fsyncSync(this.fd!));
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
