import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { LazyAction } from '../define.js';
import { addArgument } from '../option.js';

const descriptions = {
  ledger: {
    en: 'look after the ledger: set up a team ledger on PostgreSQL, move a journal into it, write it out; compact a journal file',
    ru: 'обслуживание журнала: общий журнал в PostgreSQL, перенос файла журнала в него, выгрузка; сжатие файла журнала',
  },
  migrate: {
    en: 'set up or update the PostgreSQL ledger schema (done on first use too; run it once as a user allowed to create tables)',
    ru: 'создать или обновить схему журнала в PostgreSQL (это делается и при первом использовании; запустите один раз от пользователя, которому можно создавать таблицы)',
  },
  import: {
    en: 'load a journal file into the PostgreSQL ledger; importing it again adds nothing; open payments stay open for reconcile',
    ru: 'загрузить файл журнала в журнал PostgreSQL; повторный импорт ничего не добавит; открытые платежи остаются открытыми для reconcile',
  },
  compact: {
    en: 'move closed transactions of the journal file into its dated archive, and damaged lines into <journal>.damaged',
    ru: 'перенести закрытые транзакции файла журнала в его архив по датам, а повреждённые строки — в <журнал>.damaged',
  },
  export: {
    en: 'write every record of the ledger to stdout as journal lines (JSON Lines), in the order they were recorded',
    ru: 'вывести каждую запись журнала в stdout строками журнала (JSON Lines), в порядке записи',
  },
} as const satisfies Record<string, Said>;

const journalArgument = {
  name: '<journal>',
  help: {
    en: "a journal file (JSON Lines), such as a terminal's $XDG_STATE_HOME/agentpay/journal.jsonl",
    ru: 'файл журнала (JSON Lines), например $XDG_STATE_HOME/agentpay/journal.jsonl терминала',
  },
};

/** `agentpay ledger <subcommand>`: looking after the ledger itself. Each subcommand's run is a file of its own or two. */
export function ledgerCommand(lazyAction: LazyAction, language: Language): Command {
  const ledger = new Command('ledger').description(descriptions.ledger[language]);
  ledger
    .command('migrate')
    .description(descriptions.migrate[language])
    .action(lazyAction(async () => (await import('./run.js')).runMigrate));
  addArgument(ledger.command('import'), language, journalArgument)
    .description(descriptions.import[language])
    .action(lazyAction(async () => (await import('./run.js')).runImport, 'journal'));
  ledger
    .command('compact')
    .description(descriptions.compact[language])
    .action(lazyAction(async () => (await import('./compact.js')).runCompact));
  ledger
    .command('export')
    .description(descriptions.export[language])
    .action(lazyAction(async () => (await import('./run.js')).runExport));
  return ledger;
}
