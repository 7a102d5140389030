import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinition } from '../../options/definition.js';
import type { LazyAction } from '../define.js';
import { addOptions } from '../option.js';
import { dataFormatDefinitions } from '../output-format.js';

const description: Said = {
  en: "counts and exact sums of the ledger's payments over a day or a range, grouped, with a total per currency; reads only",
  ru: 'число и точные суммы платежей журнала за день или период, по группам, с итогом по каждой валюте; только чтение',
};
const choices = '[--date <day> | --since <time> --until <time>] [--by service|operator|currency|state] [--format table|csv|json]';
const usage: Said = { en: `${choices} [options]`, ru: `${choices} [флаги]` };

const options: readonly OptionDefinition[] = [
  {
    flags: '--date <day>',
    help: {
      en: 'the payments of this local day: YYYY-MM-DD, today or yesterday (the default)',
      ru: 'платежи этого местного дня: YYYY-MM-DD, today или yesterday (по умолчанию)',
    },
  },
  {
    flags: '--since <time>',
    help: {
      en: 'the payments since a date, time or age (30m, 12h, 7d), as history reads it',
      ru: 'платежи с даты, времени или за срок (30m, 12h, 7d), как их понимает history',
    },
  },
  {
    flags: '--until <time>',
    help: {
      en: 'with --since: the payments before this date, time or age (default: now)',
      ru: 'с --since: платежи до этой даты, времени или срока (по умолчанию: сейчас)',
    },
  },
  {
    flags: '--by <dimension>',
    help: {
      en: 'group by service, operator, currency or state; repeat or separate with commas (default: service,state)',
      ru: 'группировать по service, operator, currency или state; повторите флаг или перечислите через запятую (по умолчанию: service,state)',
    },
    repeatable: true,
  },
  ...dataFormatDefinitions,
];

export function reportCommand(lazyAction: LazyAction, language: Language): Command {
  const report = new Command('report').description(description[language]).usage(usage[language]);
  return addOptions(report, language, options).action(lazyAction(async () => (await import('./run.js')).runReport));
}
