import { toDecimalComma } from '../protocol/decimal-comma.js';

// CSV as every command writes it, defined once (docs/commands.md): RFC 4180 quoting, a header, CRLF (or LF as
// asked), the delimiter asked for, amounts with a point or `--decimal-comma`, UTF-8 with `--bom`, and a text
// cell a spreadsheet would run as a formula written as text.

/** What a column holds: `text` may come from a gateway or a person; `number` (amounts, counts) and `id` are ours and stay as they are. */
type CsvCellKind = 'text' | 'number' | 'id';

export interface CsvColumn<Row> {
  header: string;
  kind: CsvCellKind;
  value(row: Row): string | null | undefined;
}

// OWASP's CSV injection rule: these first characters start a formula (or hide one behind a tab
// or a carriage return) in Excel, LibreOffice and Google Sheets.
const formulaStart = /^[=+\-@\t\r]/;

/** A text cell as a spreadsheet shows it and never runs it: one leading apostrophe when it could start a formula. */
export function spreadsheetSafe(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

const byteOrderMark = '\uFEFF';

export type CsvDelimiter = ',' | ';' | '\t';

export type CsvLineEnd = '\r\n' | '\n';

/** How cells are written: the delimiter between them, the decimal mark of `number` cells, and each line's end (CRLF). */
export interface CsvNotation {
  delimiter?: CsvDelimiter | undefined;
  decimalComma?: boolean | undefined;
  lineEnd?: CsvLineEnd | undefined;
}

// RFC 4180: a cell holding the delimiter, a quote or a line break is quoted, its quotes doubled.
const needsQuotes: Record<CsvDelimiter, RegExp> = { ',': /[",\r\n]/, ';': /[";\r\n]/, '\t': /["\t\r\n]/ };

// One record and its line end, by hand: csv-stringify sets itself up per call; a test holds the two equal.
function line(cells: readonly string[], delimiter: CsvDelimiter = ',', lineEnd: CsvLineEnd = '\r\n'): string {
  const quoted = needsQuotes[delimiter];
  let text = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    text += `${i === 0 ? '' : delimiter}${quoted.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell}`;
  }
  return `${text}${lineEnd}`;
}

/** The header row (after a BOM when asked), one line with its line end. */
export function csvHeader<Row>(
  columns: readonly CsvColumn<Row>[],
  options: { bom?: boolean } & CsvNotation = {},
): string {
  return `${options.bom ? byteOrderMark : ''}${line(
    columns.map((column) => column.header),
    options.delimiter,
    options.lineEnd,
  )}`;
}

// One row, one line: a missing value an empty cell, text made spreadsheet-safe, a number with a decimal comma
// when asked.
export function csvRow<Row>(columns: readonly CsvColumn<Row>[], row: Row, notation: CsvNotation = {}): string {
  return line(
    columns.map((column) => {
      const value = column.value(row) ?? '';
      if (column.kind === 'text') return spreadsheetSafe(value);
      return column.kind === 'number' && notation.decimalComma ? toDecimalComma(value) : value;
    }),
    notation.delimiter,
    notation.lineEnd,
  );
}
