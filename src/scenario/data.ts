import { CsvError } from 'csv-parse';
import { parse as parseCsv } from 'csv-parse/sync';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Suite } from './file.js';

// `--data <rows.csv|.json|.yaml>`: the table a case using `${row.<column>}` runs over, once a row, each value
// text as written. It is read and checked whole before anything is sent; errors name file, line and column.
export class ScenarioDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioDataError';
  }
}

export interface DataRow {
  /** From 1, the header not counted: what `case [row 3: ...]` shows. */
  number: number;
  /** The line of the file the row starts on. */
  line: number;
  values: Record<string, string>;
}

export interface ScenarioData {
  file: string;
  /** In the order of the file (a CSV's header; a JSON or YAML row's keys, first seen first). */
  columns: string[];
  rows: DataRow[];
}

type DataFormat = 'csv' | 'yaml';

function dataFormatOf(file: string): DataFormat {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(json|ya?ml)$/i.test(file)) return 'yaml';
  throw new ScenarioDataError(`${file}: give a data file ending in .csv, .json, .yaml or .yml`);
}

function csvRows(source: string, file: string): ScenarioData {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(source, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: false,
    }) as unknown as typeof records;
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    const counts = /expect (\d+), got (\d+)/.exec(error.message);
    const why = counts
      ? `the row has ${counts[2]} cells, the header ${counts[1]} columns`
      : `not valid CSV: ${error.message}`;
    throw new ScenarioDataError(`${file}${line === undefined ? '' : `: line ${line}`}: ${why}`);
  }
  const [header, ...body] = records;
  if (header === undefined)
    throw new ScenarioDataError(
      `${file}: no header row: the first line names the columns, such as service,account,amount`,
    );
  const columns = header.record.map((name) => name.trim());
  columns.forEach((name, i) => {
    if (name === '') throw new ScenarioDataError(`${file}: line ${header.info.lines}: column ${i + 1} has no name`);
    if (columns.indexOf(name) !== i)
      throw new ScenarioDataError(`${file}: line ${header.info.lines}: two columns are called ${JSON.stringify(name)}`);
  });
  // info.lines is the line a record ends on; a quoted cell may hold line breaks of its own.
  const rows = body.map(({ record, info }, index) => {
    const line = info.lines - record.reduce((breaks, cell) => breaks + (cell.match(/\n/g)?.length ?? 0), 0);
    return { number: index + 1, line, values: Object.fromEntries(columns.map((name, i) => [name, record[i] ?? ''])) };
  });
  return { file, columns, rows };
}

/** JSON or YAML: a list of maps whose values are text, numbers (kept as written) or booleans. */
function yamlRows(source: string, file: string): ScenarioData {
  const lines = new LineCounter();
  const document = parseDocument(source, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? 1 : lines.linePos(offset).line);
  const [error] = document.errors;
  if (error)
    throw new ScenarioDataError(
      `${file}: line ${lineOf(error.pos[0])}: not valid JSON or YAML: ${error.message.split('\n')[0]}`,
    );
  const list = document.contents;
  if (!isSeq(list))
    throw new ScenarioDataError(
      `${file}: the file is a list of rows, such as [{"service": "101", "account": "7011234567"}]`,
    );
  const columns: string[] = [];
  const rows = list.items.map((item, index): DataRow => {
    const line = lineOf((item as { range?: [number, number, number] } | null)?.range?.[0]);
    const at = `${file}: line ${line} (row ${index + 1})`;
    if (!isMap(item)) throw new ScenarioDataError(`${at}: a row is a map of column to value`);
    const values: Record<string, string> = {};
    for (const pair of item.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (key === '') throw new ScenarioDataError(`${at}: a column name is text`);
      const value = pair.value;
      const where = `${file}: line ${lineOf((value as { range?: [number, number, number] } | null)?.range?.[0] ?? item.range?.[0])} (row ${index + 1}), column ${JSON.stringify(key)}`;
      if (!isScalar(value) || value.value === null)
        throw new ScenarioDataError(
          `${where}: a value is text, a number or true/false, not ${value === null || (isScalar(value) && value.value === null) ? 'empty' : 'a list or map'}`,
        );
      // A number as the text it was written with: amounts and ids stay exact.
      values[key] =
        typeof value.value === 'number' || typeof value.value === 'bigint'
          ? (value.source ?? String(value.value))
          : String(value.value);
      if (!columns.includes(key)) columns.push(key);
    }
    return { number: index + 1, line, values };
  });
  return { file, columns, rows };
}

export function parseScenarioData(source: string, file: string): ScenarioData {
  const data = dataFormatOf(file) === 'csv' ? csvRows(source, file) : yamlRows(source, file);
  if (data.rows.length === 0) throw new ScenarioDataError(`${file}: no rows: a data-driven case would run no times`);
  return data;
}

/** Every column a case uses is in every row; throws naming the first row and column that is not. */
export function checkDataFor(suites: readonly Suite[], data: ScenarioData | undefined): void {
  for (const suite of suites) {
    for (const definition of suite.cases) {
      const [first] = definition.rowColumns;
      if (first === undefined) continue;
      if (data === undefined) {
        throw new ScenarioDataError(
          `${suite.file}: case ${JSON.stringify(definition.name)} uses \${row.${first}}: give its rows with --data <rows.csv|.json|.yaml>`,
        );
      }
      for (const column of definition.rowColumns) {
        const missing = data.rows.find((row) => !Object.hasOwn(row.values, column));
        if (missing === undefined) continue;
        const where = data.columns.includes(column) ? `line ${missing.line} (row ${missing.number})` : 'line 1';
        throw new ScenarioDataError(
          `${data.file}: ${where}: no column ${JSON.stringify(column)}, which case ${JSON.stringify(definition.name)} of ${suite.file} uses as \${row.${column}} (columns: ${data.columns.join(', ')})`,
        );
      }
    }
  }
}

const labelValueLength = 24;
const labelLength = 60;

// An iteration's name in every report, `case [row 3: 502/7]`: the row's number and the values of the columns
// the case uses, in file order, joined by "/", each cut at 24 characters and the whole at 60.
export function iterationName(caseName: string, row: DataRow, columns: readonly string[]): string {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const values = columns.map((column) => cut(row.values[column] ?? '', labelValueLength)).join('/');
  return `${caseName} [row ${row.number}${values === '' ? '' : `: ${cut(values, labelLength)}`}]`;
}
