import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { closestName } from '../../../closest-name.js';
import { UsageError } from '../../../errors.js';
import type { BulkRun } from '../../../ledger/bulk-run.js';
import { forbiddenCharacterText } from '../../../options/purchase.js';
import { forbiddenCharacterIn } from '../../../protocol/field-bounds.js';
import { type BadRow, badRowsText } from '../../../render/bulk.js';
import type { CsvDelimiter } from '../../../render/csv.js';
import { t } from '../../../run-scope.js';
import { linesOf } from '../../../text-lines.js';
import { parseJsonRow } from './json-row.js';
import type { OrderFormat } from './options.js';
import { type OrderColumn, orderColumns, shownName } from './order-cells.js';
import { type OrderRow, orderOf } from './order-row.js';
import { lineEndOf, type OrderNotation, type OrderText, orderText } from './order-text.js';
import type { ResultsNotation } from './results-file.js';

/** The format of the input: --from-format, else the file's extension, else its first character (`{`: JSON Lines). */
function formatOf(path: string, given: OrderFormat | undefined, firstChar: string | undefined): OrderFormat {
  if (given !== undefined) return given;
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  return firstChar === '{' ? 'jsonl' : 'csv';
}

/**
 * The header's columns, each known and named once, with service and account, or the file is
 * refused for its header alone, its rows unread: every row would be wrong for it. A name no
 * order has is named with the column it most likely meant (`acount`: "account").
 */
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

/**
 * The records of CSV text, each with the line it starts on, handed to `each` one at a time (a
 * file of 1,000,000 rows is never held as cells), with `drain` awaited after each. Without
 * a quote or a lone CR, a line is its record and splitting it at commas is all there is (as the
 * registry reader does, registry/records.ts); otherwise csv-parse reads it as a stream of the
 * pieces, a record at a time. Empty lines are passed over.
 */
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
interface FileNotation {
  delimiter: CsvDelimiter;
  decimalComma: boolean;
}

/**
 * The delimiter of a CSV order file: the one the header line holds most of, of a comma, a
 * semicolon and a tab (a column's name holds none of them); a comma when it holds none.
 */
function headerDelimiter(input: OrderText): CsvDelimiter {
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

async function readCsv(
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

async function readJsonLines(
  input: OrderText,
  decimalComma: boolean,
  rows: OrderBatches,
  problems: BadRow[],
): Promise<void> {
  let line = 0;
  for await (const lines of linesOf(input.pieces(), 'utf8')) {
    for (const text of lines) {
      line++;
      if (text.trim() === '') continue;
      let parsed: ReturnType<typeof parseJsonRow>;
      try {
        parsed = parseJsonRow(text);
      } catch {
        problems.push({ line, column: undefined, message: notJsonMessage(text) });
        continue;
      }
      const { value, givenTwice } = parsed;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push({ line, column: undefined, message: t().bulk.cell.notObject });
        continue;
      }
      if (givenTwice !== undefined) {
        problems.push({ line, column: shownName(givenTwice), message: t().bulk.cell.fieldTwice });
        continue;
      }
      const cells: Partial<Record<OrderColumn, string>> = {};
      for (const [name, cell] of Object.entries(value)) {
        if (!(orderColumns as readonly string[]).includes(name))
          problems.push({
            line,
            column: shownName(name),
            message: t().bulk.cell.unknownField(orderColumns.join(', '), closestName(name, orderColumns)),
          });
        else if (typeof cell !== 'string') problems.push({ line, column: name, message: t().bulk.cell.notString });
        else cells[name as OrderColumn] = cell;
      }
      const row = orderOf(line, cells, problems, decimalComma);
      if (row) rows.push(row);
      await rows.drain();
    }
  }
}

/** Why a line is not JSON: a control character JSON does not allow unescaped (a NUL), where it is; else not an object. */
function notJsonMessage(text: string): string {
  const forbidden = forbiddenCharacterIn(text);
  // A tab may be white space between JSON's tokens.
  return forbidden === undefined || forbidden.kind !== 'control' || forbidden.code === 0x09
    ? t().bulk.cell.notObject
    : forbiddenCharacterText(forbidden);
}

/** Rows that repeat another's key: which order is which would be a guess. */
async function checkKeys(run: BulkRun, problems: BadRow[]): Promise<void> {
  for (const { line, key, first } of await run.keysTwice())
    problems.push({ line, column: 'key', message: t().bulk.cell.keyTwice(key, first) });
}

/** The orders read, on their way into the ledger's table of the file a batch at a time. */
class OrderBatches {
  private batch: OrderRow[] = [];
  count = 0;

  constructor(private readonly run: BulkRun) {}

  push(row: OrderRow): void {
    this.batch.push(row);
    this.count++;
  }

  /** Sends a batch once `batchRows` are read (all that is left, with `all`). */
  async drain(all = false): Promise<void> {
    if (this.batch.length < (all ? 1 : batchRows)) return;
    const batch = this.batch;
    this.batch = [];
    await this.run.add(batch);
  }
}

/** Orders sent to the ledger in one statement. */
const batchRows = 500;

/**
 * Every order of the file into the ledger's table of it (`run`), or exit 2 naming every bad
 * row's line (and column): nothing sent. With it, how the file came (the delimiter given or
 * found, a decimal comma when given or when the delimiter is not a comma, its line end and
 * charset): the results file goes back so.
 */
export async function readOrders(
  path: string,
  given: OrderFormat | undefined,
  stdin: () => NodeJS.ReadableStream,
  notation: OrderNotation,
  run: BulkRun,
): Promise<{ format: OrderFormat; written: ResultsNotation }> {
  const { text, problems: notUtf8 } = await orderText(path, stdin, notation.encoding);
  refuseBadRows(path, notUtf8, t().bulk.notUtf8Hint);
  const format = formatOf(path, given, firstCharacter(text));
  const rows = new OrderBatches(run);
  const problems: BadRow[] = [];
  const delimiter = notation.delimiter ?? (format === 'csv' ? headerDelimiter(text) : ',');
  const written = { delimiter, decimalComma: notation.decimalComma || delimiter !== ',' };
  if (format === 'csv') await readCsv(text, { ...written, path }, rows, problems);
  else await readJsonLines(text, notation.decimalComma, rows, problems);
  await rows.drain(true);
  await checkKeys(run, problems);
  if (problems.length === 0 && rows.count === 0)
    problems.push({ line: 1, column: undefined, message: t().bulk.cell.noOrders });
  refuseBadRows(path, problems);
  return {
    format,
    written: { ...written, lineEnd: lineEndOf(text), encoding: notation.encoding ?? 'utf-8', bom: text.bom },
  };
}

/** The first character that is not white space, if any. */
function firstCharacter(input: OrderText): string | undefined {
  for (const piece of input.pieces()) {
    const trimmed = piece.trimStart();
    if (trimmed !== '') return trimmed[0];
  }
  return undefined;
}

/** A file refused whole for its bad rows (exit 2): how many rows were bad, for the run's metrics. */
export class BadRowsError extends UsageError {
  constructor(
    message: string,
    hint: string,
    readonly rows: number,
  ) {
    super(message, { hint });
  }
}

/** Exit 2 with each bad row on a line of its own, in the order of the file: nothing was sent. */
export function refuseBadRows(path: string, problems: readonly BadRow[], hint = t().bulk.badRowsHint): void {
  if (problems.length === 0) return;
  const rows = new Set(problems.map((problem) => problem.line)).size;
  throw new BadRowsError(badRowsText(path === '-' ? 'stdin' : path, problems, t()), hint, rows);
}
