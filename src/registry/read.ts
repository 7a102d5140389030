import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CsvError, parse } from 'csv-parse';
import { UsageError } from '../errors.js';
import { isPlainDecimal, sameDecimal } from '../protocol/money.js';
import { compileDatePattern, type DatePattern, isTimeOfDay, readDate } from './dates.js';
import type { ColumnRef, RegistryLayout } from './layout.js';

/**
 * A provider's registry read as a stream (csv-parse's streaming parser, so a registry of any
 * size passes through in small pieces), one row at a time. Every row is checked as it comes;
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
export class RegistryFileError extends UsageError {}

type Field = keyof RegistryLayout['columns'];
type Columns = Record<Field, number | undefined>;

const fieldNames: Record<Field, string> = { transactionId: 'TransactionID', date: 'date', time: 'time', account: 'account', amount: 'amount' };

/** A cell's amount as a plain decimal (`1 500,00` with a decimal comma is `1500.00`), or undefined. */
export function readAmount(cell: string, decimal: RegistryLayout['decimal']): string | undefined {
  const text = cell.replace(/[\s\u00a0\u202f]/g, '');
  const other = decimal === 'comma' ? '.' : ',';
  if (text.includes(other)) return undefined;
  const plain = decimal === 'comma' ? text.replace(',', '.') : text;
  return isPlainDecimal(plain) ? plain : undefined;
}

/** Turns bytes in a legacy charset into UTF-8 text, a chunk at a time (a character may span two chunks). */
function decoderStream(encoding: string): Transform {
  const decoder = new TextDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
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
}

function readRow(reader: RowReader, record: readonly string[], line: number): RegistryRow {
  const { layout, columns, where } = reader;
  const cell = (field: Field): string => {
    const index = columns[field]!;
    const value = record[index];
    if (value === undefined) {
      throw new RegistryFileError(`${where(line)}, column ${index + 1} (${fieldNames[field]}): missing; the row has ${record.length} column${record.length === 1 ? '' : 's'}`, {
        hint: 'fix the row, or describe the layout in a mapping file (--registry-format)',
      });
    }
    return value.trim();
  };
  const bad = (field: Field, expected: string, value: string) =>
    new RegistryFileError(`${where(line)}, column ${columns[field]! + 1} (${fieldNames[field]}): ${JSON.stringify(value)} is not ${expected}`, {
      hint: 'fix the row, or describe the layout in a mapping file (--registry-format)',
    });
  const transactionId = cell('transactionId');
  if (transactionId === '' || /\s/.test(transactionId)) throw bad('transactionId', 'a TransactionID', transactionId);
  const dateCell = cell('date');
  const date = readDate(dateCell, reader.dates);
  if (date === undefined) throw bad('date', `a date (${layout.dates.join(' or ')})`, dateCell);
  const time = columns.time === undefined ? undefined : cell('time');
  if (time !== undefined && time !== '' && !isTimeOfDay(time)) throw bad('time', 'a time (HH:mm:ss)', time);
  const amountCell = cell('amount');
  const amount = readAmount(amountCell, layout.decimal);
  if (amount === undefined) throw bad('amount', `an amount such as ${layout.decimal === 'comma' ? '1500,00' : '1500.00'}`, amountCell);
  return { transactionId, date, time: time || undefined, account: cell('account'), amount, line };
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
 * addDecimals, without reading the running sum back from text for every row).
 */
class DecimalSum {
  private units = 0n;
  private scale = 0;

  add(amount: string): void {
    const [whole = '0', fraction = ''] = amount.split('.');
    if (fraction.length > this.scale) {
      this.units *= 10n ** BigInt(fraction.length - this.scale);
      this.scale = fraction.length;
    }
    this.units += BigInt(whole + fraction.padEnd(this.scale, '0'));
  }

  value(): string {
    const digits = this.units.toString().padStart(this.scale + 1, '0');
    return this.scale === 0 ? digits : `${digits.slice(0, -this.scale)}.${digits.slice(-this.scale)}`;
  }
}

export interface RegistrySummary {
  rows: number;
  sum: string;
}

/** Reads the registry at `path`, calling `onRow` for each payment row, in order. */
export async function readRegistry(path: string, layout: RegistryLayout, onRow: (row: RegistryRow) => void): Promise<RegistrySummary> {
  const where = (line: number) => `registry ${path} line ${line}`;
  const parser = parse({
    delimiter: layout.delimiter,
    quote: layout.quote === false ? null : layout.quote,
    relax_column_count: true,
    skip_empty_lines: true,
    bom: true,
    from_line: layout.skipLines + 1,
    // The line each record ends on, as its last cell: `info: true` would copy the whole info object per record.
    on_record: (record: string[], context) => (record.push(String(context.lines)), record),
  });
  const input = createReadStream(path, { highWaterMark: 256 * 1024 });
  const flowing = pipeline(layout.encoding.toLowerCase().replace('_', '-') === 'utf-8' ? [input, parser] : [input, decoderStream(layout.encoding), parser]).then(
    () => undefined,
    (error: unknown) => error,
  );
  // With a header the columns are known once it is read; without, they are numbers.
  const noColumns: Columns = { transactionId: undefined, date: undefined, time: undefined, account: undefined, amount: undefined };
  const columns = layout.header ? noColumns : resolveColumns(layout, undefined, where, 0);
  const reader: RowReader = { layout, dates: layout.dates.map((text) => compileDatePattern(text)!), columns, where };
  let rows = 0;
  const sum = new DecimalSum();
  let totalLine: number | undefined;
  let headerSeen = !layout.header;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const line = Number(record.pop());
      if (!headerSeen) {
        reader.columns = resolveColumns(layout, record, where, line);
        headerSeen = true;
        continue;
      }
      if (record.every((cell) => cell.trim() === '')) continue;
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
  } catch (error) {
    parser.destroy();
    const failure = await flowing;
    if (error instanceof RegistryFileError) throw error;
    throw failureOf(failure ?? error, path, where);
  }
  const failure = await flowing;
  if (failure !== undefined) throw failureOf(failure, path, where);
  return { rows, sum: sum.value() };
}

function failureOf(error: unknown, path: string, where: (line: number) => string): Error {
  if (error instanceof RegistryFileError) return error;
  if ((error as CsvError).code?.startsWith('CSV_')) return csvFailure(error as CsvError, where);
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) return new RegistryFileError(`cannot read the registry ${path} (${code})`, { hint: 'check the path given to --registry' });
  return error as Error;
}
