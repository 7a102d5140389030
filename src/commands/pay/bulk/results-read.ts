import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { parse } from 'csv-parse';
import { errnoCodeOf, LocalStorageError, UsageError } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import { ensureLength, growable } from '../../../packed/growable.js';
import { Interned } from '../../../packed/interned.js';
import { longNumber } from '../../../packed/long-number.js';
import { fromDecimalComma } from '../../../protocol/decimal-comma.js';
import type { ChangedRow } from '../../../render/bulk.js';
import type { OrderStore } from './order-store.js';
import { orderCells, type ResultRow } from './results-file.js';

/**
 * The rows of an earlier run, read back from its results file as a stream of records, the last
 * line of each row winning. Only what a row's order does not say is kept, compactly: its
 * TransactionID, its state, and what it paid and its word as an index into a table of the
 * distinct values. The order's own cells must be what the results file recorded of them (a
 * file changed since is refused, run.ts); a row is made an object again when a step reads it.
 */
type ResultState = ResultRow['state'];
const states: readonly ResultState[] = ['planned', 'success', 'failed', 'pending', 'unknown'];
type Said = [string | undefined, string | undefined, string | undefined, string | undefined, string | undefined];

export class PriorRows {
  /** Slot + 1 of each line (0: none); slots are kept in the order their lines were first met. */
  private readonly slotByLine = growable(Int32Array);
  private count = 0;
  /** TransactionIDs as 64-bit integers; one written otherwise (none agentpay makes) is kept as text. */
  private readonly ids = growable(Uint32Array);
  private readonly oddIds = new Map<number, string>();
  private readonly state = growable(Uint8Array);
  private readonly said = growable(Int32Array);
  private readonly saidTable = new Interned<Said>();

  constructor(private readonly orders: OrderStore) {}

  get size(): number {
    return this.count;
  }

  set(line: number, id: string, state: ResultState, said: Said): void {
    ensureLength(this.slotByLine, line + 1);
    let slot = this.slotByLine[line]! - 1;
    if (slot === -1) {
      slot = this.count++;
      this.slotByLine[line] = slot + 1;
      ensureLength(this.ids, 2 * slot + 2);
      ensureLength(this.state, slot + 1);
      ensureLength(this.said, slot + 1);
    }
    const number = longNumber(id);
    this.ids[2 * slot] = number === undefined ? 0 : Number(number >> 32n);
    this.ids[2 * slot + 1] = number === undefined ? 0 : Number(number & 0xffffffffn);
    if (number === undefined) this.oddIds.set(slot, id);
    else this.oddIds.delete(slot);
    this.state[slot] = states.indexOf(state);
    this.said[slot] = this.saidTable.indexOf(said);
  }

  get(line: number): ResultRow | undefined {
    const slot = this.slotOf(line);
    if (slot === -1) return undefined;
    const order = this.orders.get(this.orders.indexOfLine(line));
    const [paidAmount, paidInvoiceId, voucher, status, message] = this.saidTable.at(this.said[slot]!);
    return {
      line,
      key: order.key,
      service: order.service,
      account: order.account,
      currency: order.currency,
      invoiceId: order.invoiceId,
      invoicePosition: order.invoicePosition,
      amount: order.amount,
      transactionId: this.idOf(slot),
      paidAmount,
      paidInvoiceId,
      voucher,
      state: states[this.state[slot]!]!,
      status,
      message,
    };
  }

  private idOf(slot: number): string {
    return this.oddIds.get(slot) ?? ((BigInt(this.ids[2 * slot]!) << 32n) | BigInt(this.ids[2 * slot + 1]!)).toString();
  }

  /** The row's TransactionID and state, without making the row (a resume asks them of every row). */
  transactionIdOf(line: number): string | undefined {
    const slot = this.slotOf(line);
    return slot === -1 ? undefined : this.idOf(slot);
  }

  stateOf(line: number): ResultState | undefined {
    const slot = this.slotOf(line);
    return slot === -1 ? undefined : states[this.state[slot]!];
  }

  /** The row's place in the tables, or -1 when the results file has no row of that line. */
  private slotOf(line: number): number {
    return line < this.slotByLine.length ? this.slotByLine[line]! - 1 : -1;
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

/**
 * The rows of an earlier run, and the rows whose order cells differ from the file's now (or
 * whose line the file no longer has). Undefined when there is no results file. What follows
 * the last line end is a line a kill cut short, never a row's first line: it is not read.
 */
export async function readResults(
  path: string,
  orders: OrderStore,
): Promise<{ prior: PriorRows; changed: ChangedRow[] } | undefined> {
  const head = headOf(path);
  if (head === undefined) return undefined;
  const prior = new PriorRows(orders);
  const changed = new Map<number, ChangedRow>();
  if (head.end === 0) return { prior, changed: [] };
  const parser = createReadStream(path, { start: 0, end: head.end - 1 }).pipe(
    parse({ bom: true, delimiter: head.delimiter, skip_empty_lines: true, relax_column_count: true }),
  );
  let names: string[] | undefined;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (names === undefined) {
        names = cells;
        continue;
      }
      const record: Record<string, string> = {};
      for (let index = 0; index < names.length; index++) record[names[index]!] = cells[index] ?? '';
      take(record, orders, prior, changed);
    }
  } catch (error) {
    if (errnoCodeOf(error) !== undefined) throw new LocalStorageError('read the results file', path, error);
    throw new UsageError(t().bulk.resultsUnreadable(path, (error as Error).message), {
      hint: t().bulk.resultsUnreadableHint,
    });
  }
  return { prior, changed: [...changed.values()] };
}

function take(
  record: Record<string, string>,
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
  prior.set(line, record['transaction-id'], state, [
    amountCell(record['paid-amount']),
    optional(record['paid-invoice-id']),
    optional(record.voucher),
    optional(record.status),
    optional(record.message),
  ]);
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

/** The header's delimiter and where the last whole line ends; undefined when there is no file. */
function headOf(path: string): { delimiter: string; end: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return undefined;
    throw new LocalStorageError('read the results file', path, error);
  }
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.alloc(64);
    const read = readSync(fd, first, 0, first.length, 0);
    // The character after the first column's name, `line`: the delimiter the header was written with.
    const text = first.toString('utf8', 0, read).replace(/^\uFEFF/, '');
    const after = text.charAt('line'.length);
    let end = 0;
    const block = Buffer.alloc(64 * 1024);
    for (let to = size; to > 0 && end === 0; to -= block.length) {
      const from = Math.max(0, to - block.length);
      const got = readSync(fd, block, 0, to - from, from);
      const newline = block.subarray(0, got).lastIndexOf(0x0a);
      if (newline !== -1) end = from + newline + 1;
    }
    return { delimiter: after === ';' || after === '\t' ? after : ',', end };
  } catch (error) {
    throw new LocalStorageError('read the results file', path, error);
  } finally {
    closeSync(fd);
  }
}
