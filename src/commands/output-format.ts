import { UsageError } from '../errors.js';
import type { OptionDefinitions } from '../options/definition.js';
import { choiceOption, switchOption } from '../options/values.js';
import type { Output } from '../output.js';
import type { CsvNotation } from '../render/csv.js';
import { t } from '../run-scope.js';
import { delimiterDefinitions, delimiterOption } from './spreadsheet-options.js';

/** How history and report write their data: `--format table|csv|json` (`--json` is `--format json`), `--bom` for CSV. */
const dataFormats = ['table', 'csv', 'json'] as const;
type DataFormat = (typeof dataFormats)[number];

/** history's and report's `--format`, `--bom`, `--delimiter` and `--decimal-comma`, which dataFormatOption reads. */
export const dataFormatDefinitions = {
  format: {
    flag: '--format <format>',
    help: {
      en: 'table (the default), csv (a header row, for spreadsheets) or json (one object a line, as --json)',
      ru: 'table (по умолчанию), csv (со строкой заголовков, для электронных таблиц) или json (по объекту в строке, как --json)',
    },
    choices: dataFormats,
  },
  bom: {
    flag: '--bom',
    help: {
      en: 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read UTF-8 (Cyrillic)',
      ru: 'с --format csv: начать с метки порядка байтов (BOM), для табличных программ, которым она нужна, чтобы прочесть UTF-8 (кириллицу)',
    },
  },
  ...delimiterDefinitions,
} as const satisfies OptionDefinitions;

export interface DataFormatChoice {
  format: DataFormat;
  /** A byte order mark before the CSV, for spreadsheet programs that need it to read UTF-8. */
  bom: boolean;
  /** The CSV's delimiter and decimal mark (`--delimiter ';'`, `--decimal-comma`): the same data in another notation. */
  notation: CsvNotation;
}

/** `--format` and `--bom` as given, checked against `--json` (the global flag: out.json). */
export function dataFormatOption(options: Record<string, unknown>, out: Pick<Output, 'json'>): DataFormatChoice {
  const given = choiceOption(options.format, dataFormats, t().commands.oneOf('--format', dataFormats.join(', ')));
  if (out.json && given !== undefined && given !== 'json') throw new UsageError(t().commands.jsonIsFormat(given));
  const format = given ?? (out.json ? 'json' : 'table');
  const bom = switchOption(options.bom, '--bom');
  if (bom && format !== 'csv')
    throw new UsageError(t().sheet.goesWithCsv('--bom'), { hint: t().sheet.goesWithCsvHint('--bom') });
  const notation = {
    delimiter: delimiterOption(options.delimiter),
    decimalComma: switchOption(options.decimalComma, '--decimal-comma'),
  };
  const stray =
    notation.delimiter !== undefined ? '--delimiter' : notation.decimalComma ? '--decimal-comma' : undefined;
  if (stray !== undefined && format !== 'csv')
    throw new UsageError(t().sheet.goesWithCsv(stray), { hint: t().sheet.goesWithCsvHint(stray) });
  return { format, bom, notation };
}

/** A CSV line (render/csv.ts, ending CRLF) as a data line: Output ends each line with LF, so its own LF is left to it. */
export function writeCsvLine(out: Pick<Output, 'data'>, line: string): void {
  out.data(line.endsWith('\n') ? line.slice(0, -1) : line);
}
