import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { choiceOption, optionalText } from '../../options/values.js';
import { gatewayIdentity } from '../../protocol/gateway-identity.js';
import { transactionStates } from '../../protocol/transaction-view.js';
import { t } from '../../run-scope.js';
import type { LazyAction } from '../define.js';
import { addOptions } from '../option.js';
import { dataFormatDefinitions } from '../output-format.js';

const description: Said = {
  en: "the ledger: latest state of each payment (the whole team's, with a PostgreSQL ledger)",
  ru: 'журнал: последнее состояние каждого платежа (всей команды, если журнал в PostgreSQL)',
};

/** --gateway as the ledger names gateways: the base URL's identity, however spelled (protocol/gateway-identity.ts), or "sandbox". */
function gatewayOption(raw: unknown): string | undefined {
  const gateway = optionalText(raw, '--gateway')?.trim().replace(/\/+$/, '');
  if (gateway === '') throw new UsageError(t().commands.gatewayFilter);
  return gateway === undefined ? undefined : gatewayIdentity(gateway);
}

/** Which payments history lists; --format and --bom say how (output-format.ts). */
export const historyFilterOptions = {
  since: {
    flags: '--since <date>',
    help: {
      en: 'only payments recorded since a date, time or age (30m, 12h, 7d)',
      ru: 'только платежи, записанные в журнал с даты, времени или за срок (30m, 12h, 7d)',
    },
  },
  state: {
    flags: '--state <state>',
    help: { en: 'only payments in this state', ru: 'только платежи в этом состоянии' },
    choices: transactionStates,
    parse: (raw: unknown) =>
      choiceOption(raw, transactionStates, `--state must be one of: ${transactionStates.join(', ')}`),
  },
  gateway: {
    flags: '--gateway <base-url|sandbox>',
    help: {
      en: 'only payments made through this gateway (a Gateway column shows when several are listed)',
      ru: 'только платежи через этот шлюз (когда в списке их несколько, появляется столбец «Шлюз»)',
    },
    parse: gatewayOption,
  },
  operator: {
    flags: '--operator <name>',
    help: {
      en: 'only payments made by this operator (a team ledger records who made each)',
      ru: 'только платежи этого оператора (общий журнал команды записывает, кто провёл каждый)',
    },
  },
} as const satisfies OptionDefinitions;

export function historyCommand(lazyAction: LazyAction, language: Language): Command {
  const history = new Command('history').description(description[language]);
  return addOptions(history, language, { ...historyFilterOptions, ...dataFormatDefinitions }).action(
    lazyAction(async () => (await import('./run.js')).runHistory),
  );
}
