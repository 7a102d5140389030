import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { textListOption, wholeNumberOption } from '../../options/values.js';
import { type ReportDimension, reportDimensions } from '../../render/report.js';
import { t } from '../../run-scope.js';
import type { LazyAction } from '../define.js';
import { metricsOptions } from '../metrics-options.js';
import { addOptions } from '../option.js';
import { dataFormatDefinitions } from '../output-format.js';
import { parseDimensions } from './tally.js';

const description: Said = {
  en: "counts and exact sums of the ledger's payments over a day or a range, grouped, with a total per currency; reads only",
  ru: 'число и точные суммы платежей журнала за день или период, по группам, с итогом по каждой валюте; только чтение',
};
const choices =
  '[--date <day> | --since <time> --until <time>] [--by service|operator|approvedBy|currency|state] [--format table|csv|json]';
const usage: Said = { en: `${choices} [options]`, ru: `${choices} [флаги]` };

/** --by: the dimensions to group by, in the order given, the default when none. */
function dimensionsOption(raw: unknown): ReportDimension[] {
  const dimensions = parseDimensions(textListOption(raw, '--by'));
  if (typeof dimensions === 'string')
    throw new UsageError(t().commands.byChoices(dimensions, reportDimensions.join(', ')));
  return dimensions;
}

/** Which payments report counts and how it groups them; --format and --bom say how it writes them (output-format.ts). */
export const reportOptions = {
  date: {
    flags: '--date <day>',
    help: {
      en: 'the payments of this local day: YYYY-MM-DD, today or yesterday (the default)',
      ru: 'платежи этого местного дня: YYYY-MM-DD, today или yesterday (по умолчанию)',
    },
  },
  since: {
    flags: '--since <time>',
    help: {
      en: 'the payments since a date, time or age (30m, 12h, 7d), as history reads it',
      ru: 'платежи с даты, времени или за срок (30m, 12h, 7d), как их понимает history',
    },
  },
  until: {
    flags: '--until <time>',
    help: {
      en: 'with --since: the payments before this date, time or age (default: now)',
      ru: 'с --since: платежи до этой даты, времени или срока (по умолчанию: сейчас)',
    },
  },
  shift: {
    flags: '--shift <number>',
    help: {
      en: 'the payments of the shift Z-report <number> closed (team ledger); instead of --date, --since and --until',
      ru: 'платежи смены, закрытой Z-отчётом <номер> (общий журнал); вместо --date, --since и --until',
    },
    parse: (raw: unknown) =>
      raw === undefined
        ? undefined
        : wholeNumberOption(raw, {
            fallback: '',
            maxDigits: 12,
            min: 1,
            flag: '--shift',
          }),
  },
  by: {
    flags: '--by <dimension>',
    help: {
      en: 'group by service, operator, approvedBy (the supervisor), currency or state; repeat or separate with commas (default: service,state)',
      ru: 'группировать по service, operator, approvedBy (старший кассир), currency или state; повторите флаг или перечислите через запятую (по умолчанию: service,state)',
    },
    choices: reportDimensions,
    repeatable: true,
    parse: dimensionsOption,
  },
} as const satisfies OptionDefinitions;

export function reportCommand(lazyAction: LazyAction, language: Language): Command {
  const report = new Command('report').description(description[language]).usage(usage[language]);
  return addOptions(report, language, { ...reportOptions, ...dataFormatDefinitions, ...metricsOptions }).action(
    lazyAction(async () => (await import('./run.js')).runReport),
  );
}
