import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { metricsOptions } from '../metrics-options.js';
import { dataFormatDefinitions } from '../output-format.js';
import { reportOptions } from './options.js';

const choices =
  '[--date <day> | --since <time> --until <time>] [--by service|operator|approvedBy|currency|state] [--format table|csv|json]';
const description: Said = {
  en: "counts and exact sums of the ledger's payments over a day or a range, grouped, with a total per currency; reads only",
  ru: 'число и точные суммы платежей журнала за день или период, по группам, с итогом по каждой валюте; только чтение',
};

const usage: Said = { en: `${choices} [options]`, ru: `${choices} [флаги]` };

export function reportCommand(lazyAction: LazyAction, language: Language): Command {
  const report = new Command('report').description(description[language]).usage(usage[language]);
  return addOptions(report, language, { ...reportOptions, ...dataFormatDefinitions, ...metricsOptions }).action(
    lazyAction(async () => (await import('./run.js')).runReport),
  );
}
