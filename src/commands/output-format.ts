import { UsageError } from '../errors.js';
import { choiceOption, switchOption } from '../options/values.js';
import type { Output } from '../output.js';

/** How history and report write their data: `--format table|csv|json` (`--json` is `--format json`), `--bom` for CSV. */
export const dataFormats = ['table', 'csv', 'json'] as const;
type DataFormat = (typeof dataFormats)[number];

export interface DataFormatChoice {
  format: DataFormat;
  /** A byte order mark before the CSV, for spreadsheet programs that need it to read UTF-8. */
  bom: boolean;
}

/** `--format` and `--bom` as given, checked against `--json` (the global flag: out.json). */
export function dataFormatOption(options: Record<string, unknown>, out: Pick<Output, 'json'>): DataFormatChoice {
  const given = choiceOption(options.format, dataFormats, `--format must be one of: ${dataFormats.join(', ')}`);
  if (out.json && given !== undefined && given !== 'json') throw new UsageError(`--json is --format json: give one of --json and --format ${given}`);
  const format = given ?? (out.json ? 'json' : 'table');
  const bom = switchOption(options.bom, '--bom');
  if (bom && format !== 'csv') throw new UsageError('--bom goes with --format csv', { hint: 'add --format csv, or leave --bom out' });
  return { format, bom };
}

/** A CSV line (render/csv.ts, ending CRLF) as a data line: Output ends each line with LF, so its own LF is left to it. */
export function writeCsvLine(out: Pick<Output, 'data'>, line: string): void {
  out.data(line.endsWith('\n') ? line.slice(0, -1) : line);
}
