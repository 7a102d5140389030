import { UsageError } from '../errors.js';
import type { OptionDefinitions } from '../options/definition.js';
import { optionalText, switchOption } from '../options/values.js';
import type { CsvDelimiter } from '../render/csv.js';
import { t } from '../run-scope.js';

/** CSV as a spreadsheet writes it, for every CSV read or written: `--delimiter`, `--decimal-comma`,
 * and `--encoding` for the files read (csv-charset.ts). Data stays exact: only its notation changes. */

/** `,` `;` or a tab (`tab`, or a tab character as given). */
export function delimiterOption(raw: unknown): CsvDelimiter | undefined {
  const given = optionalText(raw, '--delimiter');
  if (given === undefined) return undefined;
  if (given === ',' || given === ';') return given;
  if (given === 'tab' || given === '\t' || given === '\\t') return '\t';
  throw new UsageError(t().sheet.delimiter(given));
}

/** A WHATWG encoding label TextDecoder knows (`windows-1251`, `cp1251`, `koi8-r`), as its canonical name. */
export function encodingOption(raw: unknown): string | undefined {
  const given = optionalText(raw, '--encoding');
  if (given === undefined) return undefined;
  try {
    return new TextDecoder(given).encoding;
  } catch {
    throw new UsageError(t().sheet.encoding(given), { hint: t().sheet.encodingHint });
  }
}

export const delimiterDefinitions = {
  delimiter: {
    flag: '--delimiter <char>',
    help: {
      en: 'CSV delimiter (default: a comma out; in, what the header line uses)',
      ru: 'разделитель CSV (по умолчанию: запятая на выходе; на входе — тот, что в строке заголовков)',
    },
    // Listed for --help and completion; a tab character as typed is taken too (delimiterOption).
    choices: [',', ';', 'tab'],
    open: true,
    parse: delimiterOption,
  },
  decimalComma: {
    flag: '--decimal-comma',
    help: {
      en: 'CSV amounts with a decimal comma (1500,00), as a Russian spreadsheet writes them (default: with a delimiter other than a comma, in)',
      ru: 'суммы в CSV с десятичной запятой (1500,00), как пишет русская электронная таблица (по умолчанию — на входе при разделителе, отличном от запятой)',
    },
    parse: (raw: unknown) => switchOption(raw, '--decimal-comma'),
  },
} as const satisfies OptionDefinitions;

export const encodingDefinitions = {
  encoding: {
    flag: '--encoding <label>',
    help: {
      en: "with --from-file: the file's encoding, these or another WHATWG label (default: UTF-8; a BOM is dropped); the results file is written in it too",
      ru: 'с --from-file: кодировка файла, одна из этих или другая метка WHATWG (по умолчанию UTF-8; BOM отбрасывается); в ней же пишется файл результатов',
    },
    // The labels a desk meets, offered by completion; any other label TextDecoder knows is taken too.
    choices: ['utf-8', 'windows-1251', 'koi8-r', 'ibm866', 'utf-16le', 'utf-16be'],
    open: true,
    parse: encodingOption,
  },
} as const satisfies OptionDefinitions;
