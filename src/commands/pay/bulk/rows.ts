import { extname } from 'node:path';
import type { BulkRun } from '../../../ledger/bulk-run.js';
import type { BadRow } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import { refuseBadRows } from './bad-rows.js';
import { headerDelimiter, readCsv } from './csv-orders.js';
import { readJsonLines } from './jsonl-orders.js';
import type { OrderFormat } from './options.js';
import { OrderBatches } from './order-batches.js';
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

/** Rows that repeat another's key: which order is which would be a guess. */
async function checkKeys(run: BulkRun, problems: BadRow[]): Promise<void> {
  for (const { line, key, first } of await run.keysTwice())
    problems.push({ line, column: 'key', message: t().bulk.cell.keyTwice(key, first) });
}

// Every order of the file into the ledger's table (`run`), or exit 2 naming every bad row: nothing sent. With it
// how the file came (delimiter, decimal comma, line end, charset), for the results file.
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
