import { closeSync, fsyncSync, openSync, readSync, renameSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { removeLeftover, syncDirectory, writeAll } from '../../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../../errors.js';
import type { BulkOrder, BulkPlan } from '../../../ledger/bulk-run.js';
import type { TransactionState } from '../../../protocol/transaction-view.js';
import { type CsvColumn, type CsvNotation, csvHeader, csvRow } from '../../../render/csv.js';
import { type CharsetEncoder, replyCharset } from '../../../render/csv-charset.js';
import { t } from '../../../run-scope.js';
import type { OrderRow } from './order-row.js';

// The results file (`orders.results.csv` or --results): for the user, written afresh each run, a line per row
// as it ends, then the rows not reached. Never read back (the run's state is the ledger's); written as the
// order file came: delimiter, decimal comma, line end, charset.
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

/** Text in a charset in one buffer, used again for each piece written. */
class Encoder {
  private buffer = Buffer.allocUnsafeSlow(256 * 1024);
  private used = 0;

  constructor(readonly charset: CharsetEncoder) {}

  // Adds `text` to `fd`'s piece, writing the piece first when `text` may not fit; false, nothing added, when a
  // character of it has no bytes in the charset.
  add(fd: number, text: string): boolean {
    const most = text.length * this.charset.maxBytesPerUnit;
    if (this.used + most > this.buffer.length) this.flush(fd);
    if (most > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(most);
    const length = this.charset.encodeInto(text, this.buffer, this.used);
    if (length === undefined) return false;
    this.used += length;
    return true;
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

const byteOrderMark = '\uFEFF';

/** The text of the file at `path`, in `encoding`, appended to `fd` as UTF-8, a piece at a time. */
function transcodeToUtf8(path: string, encoding: string, fd: number): void {
  const decoder = new TextDecoder(encoding);
  const source = openSync(path, 'r');
  try {
    const piece = Buffer.allocUnsafeSlow(1 << 20);
    for (let read = readSync(source, piece); read > 0; read = readSync(source, piece))
      writeAll(fd, Buffer.from(decoder.decode(piece.subarray(0, read), { stream: true }), 'utf8'));
    writeAll(fd, Buffer.from(decoder.decode(), 'utf8'));
  } finally {
    closeSync(source);
  }
}

/** The results file (or its lock beside it) cannot be written: exit 6, with a hint that names --results. */
export function resultsFileError(path: string, cause: unknown, consequence?: string): LocalStorageError {
  const hint = t().bulk.resultsFileHint;
  return new LocalStorageError('write the results file', path, cause, consequence ? { hint, consequence } : { hint });
}

/** Bytes of appended lines that are written at once, whether or not the turn of the event loop ended. */
const pendingLimit = 64 * 1024;

/** How a results file is written: the order file's notation and line end, and the charset it came in. */
export interface ResultsNotation extends CsvNotation {
  /** The order file's encoding, canonical (`utf-8`, `windows-1251`). */
  encoding: string;
  /** The order file started with a UTF-8 byte order mark. */
  bom: boolean;
}

const plainUtf8: ResultsNotation = { encoding: 'utf-8', bom: false };

/** The results file while a run writes it, in the charset its order file came in (csv-charset.ts replyCharset). */
export class ResultsWriter {
  private fd: number | undefined;
  /** Holds the lines appended in this turn of the event loop, written together once it ends. */
  private encoder: Encoder;
  private readonly bom: boolean;
  private flushing: NodeJS.Immediate | undefined;
  private failure: LocalStorageError | undefined;
  constructor(
    readonly path: string,
    private readonly notation: ResultsNotation = plainUtf8,
    /** Told the charset left when a cell it cannot hold turns the file into UTF-8 with a BOM. */
    private readonly turnedUtf8: (left: string) => void = () => undefined,
  ) {
    const charset = replyCharset(notation.encoding, notation.bom);
    this.encoder = new Encoder(charset.encoder);
    this.bom = charset.bom;
  }

  /** Starts the file afresh with its header, synced: before any Payment leaves. A file it could not write is not left. */
  start(): void {
    try {
      this.fd = openSync(this.path, 'w');
      // The header is ASCII (and a BOM only in a Unicode charset): every charset holds it.
      this.encoder.add(this.fd, csvHeader(columns, { ...this.notation, bom: this.bom }));
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

  // A row's line. Rows ending in the same turn of the event loop go out in one write(2); a failed write is thrown
  // by the next append, or by close.
  append(row: ResultRow): void {
    if (this.fd === undefined) return;
    this.throwFailure();
    this.writing(() => this.add(csvRow(columns, row, this.notation)));
    // Rows that end without waiting (a resume's skipped rows) may all end in one turn of the event
    // loop: their lines go out every pendingLimit, not all at its end.
    if (this.encoder.held >= pendingLimit) this.flush();
    else this.flushing ??= setImmediate(() => this.flush());
  }

  /** A line in the file's charset, or in UTF-8 with a BOM from now on, the file so far too, if it has a character the charset lacks. */
  private add(line: string): void {
    if (this.encoder.add(this.fd!, line)) return;
    this.turnUtf8();
    this.encoder.add(this.fd!, line);
  }

  // The file so far rewritten as UTF-8 with a BOM (a temporary renamed over it, so it is always whole), so a
  // gateway text the single-byte charset cannot hold is kept whole.
  private turnUtf8(): void {
    const left = this.encoder.charset.encoding;
    this.encoder.flush(this.fd!);
    const temporary = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, Buffer.from(byteOrderMark, 'utf8'));
      transcodeToUtf8(this.path, left, fd);
      fsyncSync(fd);
      renameSync(temporary, this.path);
    } catch (error) {
      closeSync(fd);
      removeLeftover(temporary);
      throw error;
    }
    closeSync(this.fd!);
    this.fd = fd;
    syncDirectory(dirname(this.path));
    this.encoder = new Encoder(replyCharset('utf-8', true).encoder);
    this.turnedUtf8(left);
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
