import type { CsvError } from 'csv-parse';
import { UsageError } from '../errors.js';
import { sameDecimal } from '../protocol/money.js';
import { t } from '../run-scope.js';
import { DecimalSum, readAmount } from './amounts.js';
import { compileDatePattern, type DatePattern, isTimeOfDay, readDate } from './dates.js';
import type { ColumnRef, RegistryLayout } from './layout.js';
import { RegistryNotEncodedError, registryRecords } from './records.js';
import { transactionIdProblem } from './transaction-id-cell.js';

// A registry read as a stream, a row at a time, each checked as it comes: the first that cannot be read ends
// the reading with a RegistryFileError naming its line and column; a total line is checked against the rows.
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

/** Column indexes (from 0) of the layout's fields; names looked up in the header row. */
function resolveColumns(
  layout: RegistryLayout,
  header: readonly string[] | undefined,
  where: (line: number) => string,
  line: number,
): Columns {
  const resolve = (field: Field, ref: ColumnRef | undefined): number | undefined => {
    if (ref === undefined) return undefined;
    if (typeof ref === 'number') return ref - 1;
    const index = header?.findIndex((name) => name.trim() === ref) ?? -1;
    // A time is shown, never compared: a registry without one is read all the same.
    if (index < 0 && field !== 'time') {
      const said = t().registry;
      const names = (header ?? []).map((name) => said.columnName(name.trim())).join(', ');
      throw new RegistryFileError(said.noColumn(where(line), said.columnName(ref), said.fields[field], names), {
        hint: said.nameColumnsHint,
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
    const said = t().registry;
    throw new RegistryFileError(
      said.missingCell(said.cell(reader.where(line), index + 1, said.fields[field]), record.length),
      {
        hint: said.fixRowHint,
      },
    );
  }
  return value.trim();
}

/** A cell that is not what its column holds: `why` says what it should be (from the catalogue). */
function badCell(reader: RowReader, field: Field, value: string, line: number, why: string): RegistryFileError {
  const said = t().registry;
  const where = said.cell(reader.where(line), reader.columns[field]! + 1, said.fields[field]);
  return new RegistryFileError(said.badCell(where, shownCell(value), why), { hint: said.fixRowHint });
}

/** A cell as a message quotes it: a cell gone wrong may be a whole file long. */
function shownCell(value: string): string {
  return value.length > 60
    ? t().registry.longCell(JSON.stringify(value.slice(0, 60)), value.length)
    : JSON.stringify(value);
}

function readRow(reader: RowReader, record: readonly string[], line: number): RegistryRow {
  const { layout, columns } = reader;
  const transactionId = cellOf(reader, record, 'transactionId', line);
  const idProblem = transactionIdProblem(transactionId);
  if (idProblem !== undefined) throw badCell(reader, 'transactionId', transactionId, line, idProblem);
  const dateCell = cellOf(reader, record, 'date', line);
  // Rows come in date order: a day's rows share their date cell, read once.
  const date = dateCell === reader.lastDate?.cell ? reader.lastDate.date : readDate(dateCell, reader.dates);
  if (date === undefined)
    throw badCell(reader, 'date', dateCell, line, t().registry.notDate(layout.dates.join(t().registry.orBetween)));
  if (dateCell !== reader.lastDate?.cell) reader.lastDate = { cell: dateCell, date };
  const time = columns.time === undefined ? undefined : cellOf(reader, record, 'time', line);
  if (time !== undefined && time !== '' && !isTimeOfDay(time))
    throw badCell(reader, 'time', time, line, t().registry.notTime);
  const amountCell = cellOf(reader, record, 'amount', line);
  const amount = readAmount(amountCell, layout.decimal);
  if (amount === undefined)
    throw badCell(
      reader,
      'amount',
      amountCell,
      line,
      t().registry.notAmount(layout.decimal === 'comma' ? '1500,00' : '1500.00'),
    );
  return {
    transactionId,
    date,
    time: time || undefined,
    account: cellOf(reader, record, 'account', line),
    amount,
    line,
  };
}

/** The closing total line's count and sum, checked against what the rows gave. */
function checkTotal(reader: RowReader, record: readonly string[], line: number, rows: number, sum: string): void {
  const label = reader.layout.total!;
  const rest = record.join(' ').trim().slice(label.length).trim();
  const match = /^(\d+)\s+(.+)$/.exec(rest);
  const stated = match ? readAmount(match[2]!, reader.layout.decimal) : undefined;
  const said = t().registry;
  if (!match || stated === undefined) throw new RegistryFileError(said.totalShape(reader.where(line), label));
  if (Number(match[1]) !== rows || !sameDecimal(stated, sum)) {
    throw new RegistryFileError(said.totalMismatch(reader.where(line), label, match[1]!, stated, rows, sum), {
      hint: said.correctedHint,
    });
  }
}

function csvFailure(error: CsvError, where: (line: number) => string): RegistryFileError {
  const { lines, column } = error as CsvError & { lines?: number; column?: number | string };
  const at = typeof column === 'number' ? t().registry.atColumn(column + 1) : '';
  // The rest is csv-parse's own wording.
  return new RegistryFileError(`${where(lines ?? 0)}${at}: ${error.message.replace(/^Invalid Record Length: /, '')}`, {
    hint: t().registry.fixLineHint,
  });
}

export interface RegistrySummary {
  rows: number;
  sum: string;
}

/** Reads the registry at `path`, calling `onRow` for each payment row, in order. */
export async function readRegistry(
  path: string,
  layout: RegistryLayout,
  onRow: (row: RegistryRow) => void,
): Promise<RegistrySummary> {
  const where = (line: number) => t().registry.line(path, line);
  // With a header the columns are known once it is read; without, they are numbers.
  const noColumns: Columns = {
    transactionId: undefined,
    date: undefined,
    time: undefined,
    account: undefined,
    amount: undefined,
  };
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
        if (totalLine !== undefined)
          throw new RegistryFileError(t().registry.rowAfterTotal(where(line), layout.total!, totalLine));
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

/** A registry not in its encoding, named by its line and character when it is UTF-8 that it is not. */
function notEncoded(error: RegistryNotEncodedError, path: string, where: (line: number) => string): RegistryFileError {
  const said = t().registry;
  const hint = { hint: said.notEncodedHint };
  if (error.at === undefined) return new RegistryFileError(said.notEncoded(path, error.encoding), hint);
  const byte = `0x${error.at.byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return new RegistryFileError(said.notUtf8(where(error.at.line), byte, error.at.column), hint);
}

function failureOf(error: unknown, path: string, where: (line: number) => string): Error {
  if (error instanceof RegistryFileError) return error;
  if (error instanceof RegistryNotEncodedError) return notEncoded(error, path, where);
  if ((error as CsvError).code?.startsWith('CSV_')) return csvFailure(error as CsvError, where);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined)
    return new RegistryFileError(t().registry.cannotRead(path, code), { hint: t().registry.cannotReadHint });
  return error as Error;
}
