import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinition } from '../../options/definition.js';
import type { LazyAction } from '../define.js';
import { addArgument, addOptions } from '../option.js';

const description: Said = {
  en: 'run scenario files: steps against the gateway with assertions (a conformance suite is in examples/)',
  ru: 'выполнить файлы сценариев: шаги против шлюза с проверками (набор на соответствие лежит в examples/)',
};

const options: readonly OptionDefinition[] = [
  {
    flags: '--var <name=value>',
    help: {
      en: 'fill ${var.name} in the files (repeatable; or env AGENTPAY_VAR_<NAME>)',
      ru: 'подставить ${var.name} в файлы (можно повторять; или переменная AGENTPAY_VAR_<NAME>)',
    },
    repeatable: true,
  },
  {
    flags: '--report <junit:path|html:path>',
    help: {
      en: 'also write a JUnit XML or a self-contained HTML report to path; - prints it on stdout and moves the live lines to stderr (repeatable)',
      ru: 'записать ещё и отчёт JUnit XML или самодостаточный HTML в path; - печатает его в stdout, а текущие строки переносит в stderr (можно повторять)',
    },
    repeatable: true,
  },
  {
    flags: '--data <rows>',
    help: {
      en: 'a CSV, JSON or YAML table: each case that uses ${row.<column>} runs once per row',
      ru: 'таблица CSV, JSON или YAML: каждый случай, где есть ${row.<column>}, выполняется по разу на строку',
    },
  },
  {
    flags: '--jobs <n>',
    help: {
      en: 'cases and iterations run n at a time (default 1); reports stay in file order',
      ru: 'случаи и итерации выполняются по n одновременно (по умолчанию 1); отчёты сохраняют порядок файлов',
    },
  },
  {
    flags: '--retry <n>',
    help: {
      en: 'try a step that could not do its job (unreachable, not understood) again up to n times; a payment with the same TransactionID',
      ru: 'повторить шаг, который не смог сделать своё (шлюз недоступен, ответ не понят), до n раз; платёж — с тем же TransactionID',
    },
  },
  {
    flags: '--yes',
    help: { en: 'through a live profile: run its payments (always needed there)', ru: 'через боевой профиль: выполнить его платежи (там нужен всегда)' },
  },
  { flags: '--bail', help: { en: 'stop at the first case that does not pass', ru: 'остановиться на первом непройденном случае' } },
];

export function scenarioCommand(lazyAction: LazyAction, language: Language): Command {
  const scenario = new Command('scenario').description(description[language]);
  addArgument(scenario, language, { name: '<file...>', help: { en: 'scenario files, YAML or JSON', ru: 'файлы сценариев, YAML или JSON' } });
  return addOptions(scenario, language, options).action(lazyAction(async () => (await import('./run.js')).runScenario, 'files'));
}
