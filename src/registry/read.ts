import type { CsvError } from 'csv-parse';
import { UsageError } from '../errors.js';
import { isPlainDecimal, sameDecimal } from '../protocol/money.js';
import { longMax, transactionIdFault } from '../protocol/transaction-id.js';
import { compileDatePattern, type DatePattern, isTimeOfDay, readDate } from './dates.js';
import type { ColumnRef, RegistryLayout } from './layout.js';
import { registryRecords } from './records.js';

/**
 * A provider's registry read as a stream (records.ts: split by hand while nothing is quoted,
 * csv-parse's streaming parser from the first quote on), one row at a time. Every row is checked as it comes;
 * the first that cannot be read ends the reading with a RegistryFileError naming its line and
 * column. A closing total line, where the layout has one, is checked against the rows.
 */
export interface RegistryRow {
  transactionId: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** `HH:mm:ss` as written, when the registry has a time column. */
  time: string | undefined;
  account: string;
  /** A plain decimal with a point, as money.ts reads them. */
  amount: string;
  /** The line of the file the row ends on, from 1. */
  line: number;
}

/** A registry that cannot be read, or contradicts itself: exit 2, naming where. */
export class RegistryFileError extends UsageError {
  override name = 'RegistryFileError';
}

type Field = keyof RegistryLayout['columns'];
type Columns = Record<Field, number | undefined>;

const fieldNames: Record<Field, string> = { transactionId: 'TransactionID', date: 'date', time: 'time', account: 'account', amount: 'amount' };

/** A cell's amount as a plain decimal (`1 500,00` with a decimal comma is `1500.00`), or undefined. */
export function readAmount(cell: string, decimal: RegistryLayout['decimal']): string | undefined {
  // Most cells are plain already (`1500.00`): no copy made of them.
  if (decimal === 'point' && isPlainDecimal(cell)) return cell;
  const text = cell.replace(/[\s\u00a0\u202f]/g, '');
  const other = decimal === 'comma' ? '.' : ',';
  if (text.includes(other)) return undefined;
  const plain = decimal === 'comma' ? text.replace(',', '.') : text;
  return isPlainDecimal(plain) ? plain : undefined;
}

/** Column indexes (from 0) of the layout's fields; names looked up in the header row. */
function resolveColumns(layout: RegistryLayout, header: readonly string[] | undefined, where: (line: number) => string, line: number): Columns {
  const resolve = (field: Field, ref: ColumnRef | undefined): number | undefined => {
    if (ref === undefined) return undefined;
    if (typeof ref === 'number') return ref - 1;
    const index = header?.findIndex((name) => name.trim() === ref) ?? -1;
    // A time is shown, never compared: a registry without one is read all the same.
    if (index < 0 && field !== 'time') {
      const names = (header ?? []).map((name) => JSON.stringify(name.trim())).join(', ');
      throw new RegistryFileError(`${where(line)}: the header has no column ${JSON.stringify(ref)} (the ${fieldNames[field]}); it has ${names}`, {
        hint: `name the columns in a mapping file (--registry-format; docs/registries.md)`,
      });
    }
    return index < 0 ? undefined : index;
  };
  const { columns } = layout;
  return {
    transactionId: resolve('transactionId', columns.transactionId),
    date: resolve('date', columns.date),
    time: resolve('time', columns.time),
    account: resolve('account', columns.account),
    amount: resolve('amount', columns.amount),
  };
}

interface RowReader {
  layout: RegistryLayout;
  dates: DatePattern[];
  columns: Columns;
  where: (line: number) => string;
  lastDate?: { cell: string; date: string };
}

/** A row's cell for a field, trimmed; a RegistryFileError when the row is too short. (No closures per row: rows are many.) */
function cellOf(reader: RowReader, record: readonly string[], field: Field, line: number): string {
  const index = reader.columns[field]!;
  const value = record[index];
  if (value === undefined) {
    throw new RegistryFileError(
      `${reader.where(line)}, column ${index + 1} (${fieldNames[field]}): missing; the row has ${record.length} column${record.length === 1 ? '' : 's'}`,
      {
        hint: 'fix the row, or describe the layout in a mapping file (--registry-format)',
      },
    );
  }
  return value.trim();
}

function badCell(reader: RowReader, field: Field, expected: string, value: string, line: number, why = `is not ${expected}`): RegistryFileError {
  return new RegistryFileError(`${reader.where(line)}, column ${reader.columns[field]! + 1} (${fieldNames[field]}): ${shownCell(value)} ${why}`, {
    hint: 'fix the row, or describe the layout in a mapping file (--registry-format)',
  });
}

/** A cell as a message quotes it: a cell gone wrong may be a whole file long. */
function shownCell(value: string): string {
  return value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}... (${value.length} characters)` : JSON.stringify(value);
}

/**
 * Why a TransactionID cell is not one of ours, or undefined when it is: a Long (spec 2.1,
 * protocol/transaction-id.ts) above zero, written without leading zeros, so that `00001` is
 * never a second row for the ledger's `1`.
 */
function transactionIdProblem(cell: string): string | undefined {
  switch (transactionIdFault(cell)) {
    case undefined:
      return cell === '0' ? 'is not a TransactionID: 0 names no transaction' : undefined;
    case 'leadingZero':
      return `is written with a leading zero: a TransactionID is written without (${cell.replace(/^0+(?=\d)/, '')})`;
    case 'tooLarge':
      return `is beyond a signed 64-bit Long (at most ${longMax}): not a TransactionID`;
    default:
      return 'is not a TransactionID (digits only: a signed 64-bit Long)';
  }
}

function readRow(reader: RowReader, record: readonly string[], line: number): RegistryRow {
  const { layout, columns } = reader;
  const transactionId = cellOf(reader, record, 'transactionId', line);
  const idProblem = transactionIdProblem(transactionId);
  if (idProblem !== undefined) throw badCell(reader, 'transactionId', 'a TransactionID', transactionId, line, idProblem);
  const dateCell = cellOf(reader, record, 'date', line);
  // Rows come in date order: a day's rows share their date cell, read once.
  const date = dateCell === reader.lastDate?.cell ? reader.lastDate.date : readDate(dateCell, reader.dates);
  if (date === undefined) throw badCell(reader, 'date', `a date (${layout.dates.join(' or ')})`, dateCell, line);
  if (dateCell !== reader.lastDate?.cell) reader.lastDate = { cell: dateCell, date };
  const time = columns.time === undefined ? undefined : cellOf(reader, record, 'time', line);
  if (time !== undefined && time !== '' && !isTimeOfDay(time)) throw badCell(reader, 'time', 'a time (HH:mm:ss)', time, line);
  const amountCell = cellOf(reader, record, 'amount', line);
  const amount = readAmount(amountCell, layout.decimal);
  if (amount === undefined) throw badCell(reader, 'amount', `an amount such as ${layout.decimal === 'comma' ? '1500,00' : '1500.00'}`, amountCell, line);
  return { transactionId, date, time: time || undefined, account: cellOf(reader, record, 'account', line), amount, line };
}

/** The closing total line's count and sum, checked against what the rows gave. */
function checkTotal(reader: RowReader, record: readonly string[], line: number, rows: number, sum: string): void {
  const label = reader.layout.total!;
  const rest = record.join(' ').trim().slice(label.length).trim();
  const match = /^(\d+)\s+(.+)$/.exec(rest);
  const stated = match ? readAmount(match[2]!, reader.layout.decimal) : undefined;
  if (!match || stated === undefined) {
    throw new RegistryFileError(`${reader.where(line)}: the ${label} line should give the count of rows and the sum of their amounts, as in "${label} 3 4500.00"`);
  }
  if (Number(match[1]) !== rows || !sameDecimal(stated, sum)) {
    throw new RegistryFileError(
      `${reader.where(line)}: the ${label} line says ${match[1]} rows summing ${stated}, but the registry's rows are ${rows} summing ${sum}; the registry contradicts itself`,
      { hint: 'ask the provider for a corrected registry; nothing was compared' },
    );
  }
}

function csvFailure(error: CsvError, where: (line: number) => string): RegistryFileError {
  const { lines, column } = error as CsvError & { lines?: number; column?: number | string };
  const at = typeof column === 'number' ? `, column ${column + 1}` : '';
  return new RegistryFileError(`${where(lines ?? 0)}${at}: ${error.message.replace(/^Invalid Record Length: /, '')}`, {
    hint: 'fix the line, or describe the layout in a mapping file (--registry-format)',
  });
}

/**
 * The exact sum of many plain decimals as whole units of the finest scale seen (money.ts
 * addDecimals, without reading the running sum back from text for every row). An amount of a
 * few digits is turned into units as a double, exactly (well inside 2^53, and rounded from a
 * relative error of 2^-53) and summed as one until the sum nears 2^53; BigInt takes the rest.
 */
export class DecimalSum {
  private units = 0n;
  private small = 0;
  private scale = 0;

  add(amount: string): void {
    const point = amount.indexOf('.');
    const scale = point === -1 ? 0 : amount.length - point - 1;
    if (scale > this.scale) {
      this.flush();
      this.units *= 10n ** BigInt(scale - this.scale);
      this.scale = scale;
    }
    const units = amount.length <= 15 ? Math.round(Number(amount) * 10 ** this.scale) : Number.NaN;
    if (units <= 1e15) {
      this.small += units;
      if (this.small > 2 ** 52) this.flush();
      return;
    }
    const [whole = '0', fraction = ''] = amount.split('.');
    this.units += BigInt(whole + fraction.padEnd(this.scale, '0'));
  }

  value(): string {
    this.flush();
    const digits = this.units.toString().padStart(this.scale + 1, '0');
    return this.scale === 0 ? digits : `${digits.slice(0, -this.scale)}.${digits.slice(-this.scale)}`;
  }

  private flush(): void {
    this.units += BigInt(this.small);
    this.small = 0;
  }
}

export interface RegistrySummary {
  rows: number;
  sum: string;
}

/** Reads the registry at `path`, calling `onRow` for each payment row, in order. */
export async function readRegistry(path: string, layout: RegistryLayout, onRow: (row: RegistryRow) => void): Promise<RegistrySummary> {
  const where = (line: number) => `registry ${path} line ${line}`;
  // With a header the columns are known once it is read; without, they are numbers.
  const noColumns: Columns = { transactionId: undefined, date: undefined, time: undefined, account: undefined, amount: undefined };
  const columns = layout.header ? noColumns : resolveColumns(layout, undefined, where, 0);
  const reader: RowReader = { layout, dates: layout.dates.map((text) => compileDatePattern(text)!), columns, where };
  let rows = 0;
  const sum = new DecimalSum();
  let totalLine: number | undefined;
  let headerSeen = !layout.header;
  try {
    for await (const { records, lines } of registryRecords(path, layout)) {
      for (let index = 0; index < records.length; index++) {
        const [record, line] = [records[index]!, lines[index]!];
        if (!headerSeen) {
          reader.columns = resolveColumns(layout, record, where, line);
          headerSeen = true;
          continue;
        }
        if (isBlank(record)) continue;
        if (totalLine !== undefined) throw new RegistryFileError(`${where(line)}: a row after the ${layout.total} line (line ${totalLine}); the total closes the registry`);
        if (layout.total !== undefined && record[0]?.trim().startsWith(layout.total)) {
          checkTotal(reader, record, line, rows, sum.value());
          totalLine = line;
          continue;
        }
        const row = readRow(reader, record, line);
        rows++;
        sum.add(row.amount);
        onRow(row);
      }
    }
  } catch (error) {
    throw failureOf(error, path, where);
  }
  return { rows, sum: sum.value() };
}

/** A row of blank cells only (no closure made per row: rows are many). */
function isBlank(record: readonly string[]): boolean {
  for (const cell of record) if (cell.trim() !== '') return false;
  return true;
}

function failureOf(error: unknown, path: string, where: (line: number) => string): Error {
  if (error instanceof RegistryFileError) return error;
  if ((error as CsvError).code?.startsWith('CSV_')) return csvFailure(error as CsvError, where);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) return new RegistryFileError(`cannot read the registry ${path} (${code})`, { hint: 'check the path given to --registry' });
  return error as Error;
}
