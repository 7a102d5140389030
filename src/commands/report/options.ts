import { UsageError } from '../../errors.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { textListOption, wholeNumberOption } from '../../options/values.js';
import { type ReportDimension, reportDimensions } from '../../render/report.js';
import { t } from '../../run-scope.js';
import { parseDimensions } from './tally.js';

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
    flag: '--date <day>',
    help: {
      en: 'the payments of this local day: YYYY-MM-DD, today or yesterday (the default)',
      ru: 'платежи этого местного дня: YYYY-MM-DD, today или yesterday (по умолчанию)',
    },
  },
  since: {
    flag: '--since <time>',
    help: {
      en: 'the payments since a date, time or age (30m, 12h, 7d), as history reads it',
      ru: 'платежи с даты, времени или за срок (30m, 12h, 7d), как их понимает history',
    },
  },
  until: {
    flag: '--until <time>',
    help: {
      en: 'with --since: the payments before this date, time or age (default: now)',
      ru: 'с --since: платежи до этой даты, времени или срока (по умолчанию: сейчас)',
    },
  },
  shift: {
    flag: '--shift <number>',
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
    flag: '--by <dimension>',
    help: {
      en: 'group by service, operator, approvedBy (the supervisor), currency or state; repeat or separate with commas (default: service,state)',
      ru: 'группировать по service, operator, approvedBy (старший кассир), currency или state; повторите флаг или перечислите через запятую (по умолчанию: service,state)',
    },
    choices: reportDimensions,
    repeatable: true,
    parse: dimensionsOption,
  },
} as const satisfies OptionDefinitions;
