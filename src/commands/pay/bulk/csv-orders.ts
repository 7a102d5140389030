import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { closestName } from '../../../closest-name.js';
import { UsageError } from '../../../errors.js';
import type { BadRow } from '../../../render/bulk.js';
import type { CsvDelimiter } from '../../../render/csv.js';
import { t } from '../../../run-scope.js';
import { refuseBadRows } from './bad-rows.js';
import type { OrderBatches } from './order-batches.js';
import { type OrderColumn, orderColumns, shownName } from './order-cells.js';
import { orderOf } from './order-row.js';
import type { OrderText } from './order-text.js';

// The header's columns, each known and named once, with service and account, or the file is refused for its
// header alone. An unknown name is told with the column it most likely meant.
function headerColumns(header: readonly string[], line: number, path: string): OrderColumn[] {
  const unknown = header.filter((raw) => !(orderColumns as readonly string[]).includes(raw.trim().toLowerCase()));
  if (unknown.length > 0) {
    const named = unknown.map((raw) => ({ name: shownName(raw.trim()), meant: closestName(raw, orderColumns) }));
    throw new UsageError(t().bulk.unknownColumns(path === '-' ? 'stdin' : path, named), {
      hint: t().bulk.unknownColumnsHint(orderColumns.join(', ')),
    });
  }
  const problems: BadRow[] = [];
  const columns = header.map((raw) => raw.trim().toLowerCase() as OrderColumn);
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) problems.push({ line, column: name, message: t().bulk.cell.namedTwice });
    seen.add(name);
  }
  if (!seen.has('service') || !seen.has('account'))
    problems.push({ line, column: undefined, message: t().bulk.cell.headerNeeds });
  refuseBadRows(path, problems);
  return columns;
}

// CSV records with the line each starts on, handed to `each` one at a time, `drain` awaited after each. Without a
// quote or lone CR a line is its record, split by hand (as registry/records.ts); else csv-parse streams it.
// Empty lines are passed over.
async function csvRecords(
  input: OrderText,
  delimiter: CsvDelimiter,
  each: (cells: string[], line: number) => void,
  drain: () => Promise<void>,
): Promise<void> {
  if (input.plain) {
    let line = 1;
    for (const text of input.pieces()) {
      for (let start = 0; start < text.length; line++) {
        const newline = text.indexOf('\n', start);
        const end = newline === -1 ? text.length : newline;
        const bare = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
        if (bare !== '') {
          each(bare.split(delimiter), line);
          await drain();
        }
        start = end + 1;
      }
    }
    return;
  }
  const parser = Readable.from(input.pieces()).pipe(
    parse({
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      // The line each record starts on.
      on_record: (record: string[], context) =>
        [record, context.lines - (record.join('').match(/\n/g)?.length ?? 0)] as unknown as string[],
    }),
  );
  for await (const [record, line] of parser as AsyncIterable<[string[], number]>) {
    each(record, line);
    await drain();
  }
}

/** How an order file was written: its delimiter, and whether its amounts have a decimal comma. */
export interface FileNotation {
  delimiter: CsvDelimiter;
  decimalComma: boolean;
}

// A CSV order file's delimiter: the one its header holds most of, of comma, semicolon and tab; else a comma.
export function headerDelimiter(input: OrderText): CsvDelimiter {
  let first = '';
  for (const piece of input.pieces()) {
    first = piece;
    break;
  }
  const header = first.trimStart().split(/\r?\n|\r/, 1)[0] ?? '';
  const count = (delimiter: CsvDelimiter) => header.split(delimiter).length - 1;
  const found = ([';', '\t'] as const).find((delimiter) => count(delimiter) > count(','));
  return found ?? ',';
}

export async function readCsv(
  input: OrderText,
  notation: FileNotation & { path: string },
  rows: OrderBatches,
  problems: BadRow[],
): Promise<void> {
  let columns: OrderColumn[] | undefined;
  const take = (record: string[], line: number) => {
    if (columns === undefined) {
      columns = headerColumns(record, line, notation.path);
      return;
    }
    if (record.length !== columns.length) {
      problems.push({ line, column: undefined, message: t().bulk.cell.cellCount(record.length, columns.length) });
      return;
    }
    const cells: Partial<Record<OrderColumn, string>> = {};
    for (let index = 0; index < record.length; index++) cells[columns[index]!] = record[index]!;
    const row = orderOf(line, cells, problems, notation.decimalComma);
    if (row) rows.push(row);
  };
  try {
    await csvRecords(input, notation.delimiter, take, () => rows.drain());
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const { lines, message } = error as { lines?: number; message: string };
    problems.push({ line: lines ?? 0, column: undefined, message: t().bulk.cell.notCsv(message) });
    return;
  }
  if (columns === undefined) problems.push({ line: 1, column: undefined, message: t().bulk.cell.noHeader });
}
