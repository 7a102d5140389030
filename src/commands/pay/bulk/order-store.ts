import { ensureLength, growable } from '../../../packed/growable.js';
import type { OrderRow } from './order-row.js';

/**
 * The checked orders of a file, packed: each row's cells as UTF-8 in one growing buffer (cells
 * apart by U+001F, which no cell may hold: order-cells.ts refuses control characters), with the
 * row's line. An order is made an object again only when a step reads it (`get`), so a file of
 * 1,000,000 rows holds ~45 MB here rather than an object and strings a row.
 */
const separator = '\u001f';
const chunkBytes = 1 << 20;

export class OrderStore implements Iterable<OrderRow> {
  private readonly chunks: Buffer[] = [];
  /** Where the next row's bytes go: chunk * chunkBytes + offset. */
  private used = 0;
  /**
   * Where each row starts, on a resizable buffer: it grows in place, no copy beside it
   * (packed/growable.ts). A row ends where the next one starts, or where its chunk's bytes end.
   */
  private readonly starts = growable(Uint32Array);
  private readonly chunkEnds: number[] = [];
  /**
   * Each row's line, kept only once a row's line is not the one after the row before's (blank
   * lines, a quoted line break, a JSON row over lines): until then it is `firstLine` + index.
   */
  private lines: Uint32Array | undefined;
  private firstLine = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(row: OrderRow): void {
    const text = [
      row.key ?? '',
      row.service,
      row.account,
      row.currency,
      row.invoiceId ?? '',
      row.invoicePosition ?? '',
      row.amount ?? '',
    ].join(separator);
    const room = Buffer.byteLength(text, 'utf8');
    if (room > chunkBytes) throw new RangeError(`an order of ${room} bytes`);
    if (this.chunks.length === 0 || (this.used % chunkBytes) + room > chunkBytes) {
      this.used = this.chunks.length * chunkBytes;
      this.chunks.push(Buffer.allocUnsafeSlow(chunkBytes));
    }
    const chunk = this.chunks.at(-1)!;
    ensureLength(this.starts, this.count + 1);
    this.starts[this.count] = this.used;
    this.used += chunk.write(text, this.used % chunkBytes, 'utf8');
    this.chunkEnds[this.chunks.length - 1] = this.used;
    this.keepLine(row.line);
    this.count++;
  }

  private keepLine(line: number): void {
    if (this.count === 0) this.firstLine = line;
    if (this.lines === undefined && line !== this.firstLine + this.count) {
      this.lines = growable(Uint32Array);
      ensureLength(this.lines, this.count);
      for (let index = 0; index < this.count; index++) this.lines[index] = this.firstLine + index;
    }
    if (this.lines === undefined) return;
    ensureLength(this.lines, this.count + 1);
    this.lines[this.count] = line;
  }

  lineOf(index: number): number {
    return this.lines === undefined ? this.firstLine + index : this.lines[index]!;
  }

  /** The row's key, if it has one: one cell decoded, not the row (a step over every row reads just this). */
  keyOf(index: number): string | undefined {
    return this.cells(index, 0, 1) || undefined;
  }

  accountOf(index: number): string {
    return this.cells(index, 2, 3);
  }

  currencyOf(index: number): string {
    return this.cells(index, 3, 4);
  }

  /** Whether the row names a dynamic voucher (an InvoiceId or a position in the list): its amount comes from a check. */
  namesVoucher(index: number): boolean {
    const [from, to] = this.cellRange(index, 4, 6);
    return to - from > 1;
  }

  /**
   * What makes two rows the same purchase (desk-rules.ts duplicatesOf, within the file): every
   * cell but the key, as one text. An empty cell stands for one left out, which no given cell is.
   */
  purchaseOf(index: number): string {
    return this.cells(index, 1, 7);
  }

  /** The text of cells `first` up to (not with) `last`, their separators kept. */
  private cells(index: number, first: number, last: number): string {
    const [from, to] = this.cellRange(index, first, last);
    return this.chunkOf(index).toString('utf8', from, to);
  }

  /** Where cells `first` up to `last` lie in the row's chunk. */
  private cellRange(index: number, first: number, last: number): [number, number] {
    const chunk = this.chunkOf(index);
    const start = this.starts[index]! % chunkBytes;
    const end = start + this.endOf(index) - this.starts[index]!;
    let from = start;
    for (let cell = 0; cell < first; cell++) from = chunk.indexOf(0x1f, from) + 1;
    let to = from - 1;
    for (let cell = first; cell < last && to < end; cell++) {
      to = chunk.indexOf(0x1f, to + 1);
      if (to === -1 || to > end) to = end;
    }
    return [from, to];
  }

  private chunkOf(index: number): Buffer {
    return this.chunks[Math.floor(this.starts[index]! / chunkBytes)]!;
  }

  /** Where the row's bytes end: where the next row starts, unless that one starts a new chunk. */
  private endOf(index: number): number {
    const chunk = Math.floor(this.starts[index]! / chunkBytes);
    const next = index + 1 < this.count ? this.starts[index + 1]! : -1;
    return next !== -1 && Math.floor(next / chunkBytes) === chunk ? next : this.chunkEnds[chunk]!;
  }

  get(index: number): OrderRow {
    const start = this.starts[index]!;
    const chunk = this.chunks[Math.floor(start / chunkBytes)]!;
    const from = start % chunkBytes;
    const text = chunk.toString('utf8', from, from + this.endOf(index) - start);
    const [key, service, account, currency, invoiceId, position, amount] = text.split(separator) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    return {
      line: this.lineOf(index),
      key: key || undefined,
      service,
      account,
      currency,
      invoiceId: invoiceId || undefined,
      invoicePosition: position === '' ? undefined : Number(position),
      amount: amount || undefined,
    };
  }

  /** The index of the row that starts on `line`, or -1 (rows are in the order of their lines). */
  indexOfLine(line: number): number {
    const lines = this.lines;
    if (lines === undefined) {
      const index = line - this.firstLine;
      return Number.isInteger(index) && index >= 0 && index < this.count ? index : -1;
    }
    let [low, high] = [0, this.count - 1];
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = lines[middle]!;
      if (at === line) return middle;
      if (at < line) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  *[Symbol.iterator](): Iterator<OrderRow> {
    for (let index = 0; index < this.count; index++) yield this.get(index);
  }
}
