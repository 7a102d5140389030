import { UsageError } from '../../../errors.js';
import type { OptionDefinition, OptionDefinitions } from '../../../options/definition.js';
import {
  choiceOption,
  concurrencyOption,
  defaultConcurrency,
  optionalNonBlankText,
  optionRecord,
  switchOption,
} from '../../../options/values.js';
import { t } from '../../../run-scope.js';
import {
  delimiterDefinitions,
  delimiterOption,
  encodingDefinitions,
  encodingOption,
} from '../../spreadsheet-options.js';
import type { OrderNotation } from './order-text.js';

const orderFormats = ['csv', 'jsonl'] as const;
export type OrderFormat = (typeof orderFormats)[number];

/** --from-file: bulk top-ups, the option that makes pay a bulk run. */
export const fromFileDefinition = {
  flag: '--from-file <path>',
  help: {
    en: 'bulk top-ups: one payment per row of a CSV (with a header) or JSON Lines file, - for stdin (docs/commands.md)',
    ru: 'массовое пополнение: по платежу на строку файла CSV (с заголовком) или JSON Lines, - для stdin (docs/commands.md)',
  },
} as const satisfies OptionDefinition;

/** The options only a bulk run takes, as bulkOptions reads them. */
export const bulkOnlyDefinitions = {
  fromFormat: {
    flag: '--from-format <format>',
    help: {
      en: 'with --from-file: csv or jsonl (default: by the extension, else by the first character)',
      ru: 'с --from-file: csv или jsonl (по умолчанию по расширению, иначе по первому символу)',
    },
    choices: orderFormats,
  },
  results: {
    flag: '--results <path>',
    help: {
      en: 'with --from-file: the results file (default: beside the input, orders.results.csv; required with -)',
      ru: 'с --from-file: файл результатов (по умолчанию рядом с входным, заказы.results.csv; обязателен при -)',
    },
  },
  concurrency: {
    flag: '--concurrency <n>',
    help: {
      en: `with --from-file: rows in flight at once (default ${defaultConcurrency})`,
      ru: `с --from-file: сколько строк в работе одновременно (по умолчанию ${defaultConcurrency})`,
    },
  },
  ...delimiterDefinitions,
  ...encodingDefinitions,
} as const satisfies OptionDefinitions;

/** `pay --from-file`'s options; the one-payment options belong in the file's rows. */
export interface BulkOptions {
  fromFile: string;
  fromFormat: OrderFormat | undefined;
  results: string | undefined;
  concurrency: number;
  /** How the order file is written; the results file is written as the order file is. */
  notation: OrderNotation;
  dryRun: boolean;
  yes: boolean;
  overLimit: boolean;
  allowDuplicate: boolean;
}

const perPayment = [
  ['service', '--service'],
  ['account', '--account'],
  ['currency', '--currency'],
  ['invoiceId', '--invoice-id'],
  ['amount', '--amount'],
  ['txnId', '--txn-id'],
  ['receipt', '--receipt'],
  ['requestApproval', '--request-approval'],
  ['approved', '--approved'],
] as const;

const bulkOnly = [
  ['fromFormat', '--from-format'],
  ['results', '--results'],
  ['concurrency', '--concurrency'],
  ['delimiter', '--delimiter'],
  ['decimalComma', '--decimal-comma'],
  ['encoding', '--encoding'],
  ['metricsFile', '--metrics-file'],
  ['metricsJob', '--metrics-job'],
] as const;

/** The options of one payment that have no place beside --from-file, or of a bulk run without it. */
export function checkBulkOrSingle(raw: unknown): boolean {
  const options = optionRecord(raw);
  if (options.fromFile === undefined) {
    const given = bulkOnly.find(([name]) => options[name] !== undefined);
    if (given !== undefined) throw new UsageError(t().bulk.goesWithFromFile(given[1]));
    return false;
  }
  const given = perPayment.find(([name]) => options[name] !== undefined);
  if (given !== undefined) {
    throw new UsageError(t().bulk.notWithFromFile(given[1]), {
      hint: t().bulk.notWithFromFileHint,
    });
  }
  return true;
}

export function bulkOptions(raw: unknown): BulkOptions {
  const options = optionRecord(raw);
  return {
    fromFile: optionalNonBlankText(options.fromFile, '--from-file')!,
    fromFormat: choiceOption(
      options.fromFormat,
      orderFormats,
      `--from-format must be one of: ${orderFormats.join(', ')}`,
    ),
    results: optionalNonBlankText(options.results, '--results'),
    concurrency: concurrencyOption(options.concurrency),
    notation: {
      delimiter: delimiterOption(options.delimiter),
      decimalComma: switchOption(options.decimalComma, '--decimal-comma'),
      encoding: encodingOption(options.encoding),
    },
    dryRun: switchOption(options.dryRun, '--dry-run'),
    yes: switchOption(options.yes, '--yes'),
    overLimit: switchOption(options.overLimit, '--over-limit'),
    allowDuplicate: switchOption(options.allowDuplicate, '--allow-duplicate'),
  };
}
