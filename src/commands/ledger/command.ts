import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument, addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import type { LazyAction } from '../define.js';

const descriptions = {
  ledger: {
    en: 'look after the ledger: load an earlier journal into it, write it out; set up a team ledger on PostgreSQL',
    ru: 'обслуживание журнала: загрузка прежнего журнала, выгрузка; общий журнал в PostgreSQL',
  },
  migrate: {
    en: 'set up or update the PostgreSQL ledger schema (done on first use too; run it once as a user allowed to create tables)',
    ru: 'создать или обновить схему журнала в PostgreSQL (это делается и при первом использовании; запустите один раз от пользователя, которому можно создавать таблицы)',
  },
  import: {
    en: "load an earlier agentpay's journal file (plain or compacted) into the ledger; importing it again adds nothing; open payments stay open for reconcile",
    ru: 'загрузить файл журнала прежней версии agentpay (обычный или сжатый) в журнал; повторный импорт ничего не добавит; открытые платежи остаются открытыми для reconcile',
  },
  export: {
    en: 'write every record of the ledger to stdout as journal lines (JSON Lines), in the order they were recorded',
    ru: 'вывести каждую запись журнала в stdout строками журнала (JSON Lines), в порядке записи',
  },
  addOperator: {
    en: "add a person's login role to the PostgreSQL ledger, with only an operator's rights (run with an administrator's URL)",
    ru: 'добавить в журнал PostgreSQL роль для входа одного человека, только с правами оператора (запускать с URL администратора)',
  },
  operators: {
    en: "list the PostgreSQL ledger's operator roles, and which of them may approve",
    ru: 'показать роли операторов журнала PostgreSQL и какие из них могут одобрять',
  },
  policy: {
    en: "show or set the rules the team ledger's database applies to every payment: approval thresholds, shifts (set with an administrator's URL)",
    ru: 'показать или задать правила, которые база общего журнала применяет к каждому платежу: пороги одобрения, смены (задаются с URL администратора)',
  },
  removeOperator: {
    en: "remove an operator role (run with an administrator's URL); what it recorded keeps its name",
    ru: 'удалить роль оператора (запускать с URL администратора); записанное ею остаётся под её именем',
  },
} as const satisfies Record<string, Said>;

const roleArgument = {
  name: '<role>',
  help: {
    en: 'the database role, one per person: lower-case letters, digits and _',
    ru: 'роль в базе данных, по одной на человека: строчные латинские буквы, цифры и _',
  },
};

const addOperatorOptions = {
  supervisor: {
    flag: '--supervisor',
    help: {
      en: "the role may also approve another operator's request (never its own)",
      ru: 'роль может ещё и одобрять запросы других операторов (но не свои)',
    },
  },
  passwordStdin: {
    flag: '--password-stdin',
    help: {
      en: "read the role's password from stdin (one trailing newline is dropped); only its SCRAM verifier is sent",
      ru: 'прочитать пароль роли из stdin (один перевод строки в конце отбрасывается); отправляется только его SCRAM-хеш',
    },
    required: true,
  },
} as const satisfies OptionDefinitions;

const policyOptions = {
  approvalThreshold: {
    flag: '--approval-threshold <limits>',
    help: {
      en: "per currency, a payment above this needs a supervisor's approval: KZT=150000.00,USD=500",
      ru: 'для каждой валюты: платёж выше этой суммы требует одобрения старшего кассира: KZT=150000.00,USD=500',
    },
  },
  clearApprovalThreshold: {
    flag: '--clear-approval-threshold <currencies>',
    help: { en: 'drop the thresholds of these currencies: KZT,USD', ru: 'убрать пороги этих валют: KZT,USD' },
  },
  shifts: {
    flag: '--shifts <rule>',
    choices: ['required', 'optional'],
    help: {
      en: 'whether every payment needs its operator role to have an open shift',
      ru: 'нужна ли для каждого платежа открытая смена его роли',
    },
  },
} as const satisfies OptionDefinitions;

const journalArgument = {
  name: '<journal>',
  help: {
    en: "an earlier agentpay's journal file (JSON Lines), such as $XDG_STATE_HOME/agentpay/journal.jsonl",
    ru: 'файл журнала прежней версии agentpay (JSON Lines), например $XDG_STATE_HOME/agentpay/journal.jsonl',
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
    .command('export')
    .description(descriptions.export[language])
    .action(lazyAction(async () => (await import('./run.js')).runExport));
  addOptions(addArgument(ledger.command('add-operator'), language, roleArgument), language, addOperatorOptions)
    .description(descriptions.addOperator[language])
    .action(lazyAction(async () => (await import('./operators.js')).runAddOperator, 'role'));
  ledger
    .command('operators')
    .description(descriptions.operators[language])
    .action(lazyAction(async () => (await import('./operators.js')).runOperators));
  addOptions(ledger.command('policy'), language, policyOptions)
    .description(descriptions.policy[language])
    .action(lazyAction(async () => (await import('./policy.js')).runPolicy));
  addArgument(ledger.command('remove-operator'), language, roleArgument)
    .description(descriptions.removeOperator[language])
    .action(lazyAction(async () => (await import('./operators.js')).runRemoveOperator, 'role'));
  return ledger;
}
