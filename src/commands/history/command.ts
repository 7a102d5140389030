import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinition } from '../../options/definition.js';
import { transactionStates } from '../../protocol/transaction-view.js';
import type { LazyAction } from '../define.js';
import { addOptions } from '../option.js';
import { dataFormatDefinitions } from '../output-format.js';

const description: Said = {
  en: "the ledger: latest state of each payment (the whole team's, with a PostgreSQL ledger)",
  ru: 'журнал: последнее состояние каждого платежа (всей команды, если журнал в PostgreSQL)',
};

const options: readonly OptionDefinition[] = [
  {
    flags: '--since <date>',
    help: {
      en: 'only payments journaled since a date, time or age (30m, 12h, 7d)',
      ru: 'только платежи, записанные в журнал с даты, времени или за срок (30m, 12h, 7d)',
    },
  },
  { flags: '--state <state>', help: { en: 'only payments in this state', ru: 'только платежи в этом состоянии' }, choices: transactionStates },
  {
    flags: '--gateway <base-url|sandbox>',
    help: {
      en: 'only payments made through this gateway (a Gateway column shows when several are listed)',
      ru: 'только платежи через этот шлюз (когда в списке их несколько, появляется столбец Gateway)',
    },
  },
  {
    flags: '--operator <name>',
    help: {
      en: 'only payments made by this operator (a team ledger records who made each)',
      ru: 'только платежи этого оператора (общий журнал команды записывает, кто провёл каждый)',
    },
  },
  ...dataFormatDefinitions,
];

export function historyCommand(lazyAction: LazyAction, language: Language): Command {
  const history = new Command('history').description(description[language]);
  return addOptions(history, language, options).action(lazyAction(async () => (await import('./run.js')).runHistory));
}
