import { UsageError } from '../../errors.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { optionalText } from '../../options/values.js';
import { gatewayIdentity } from '../../protocol/gateway-identity.js';
import { transactionStates } from '../../protocol/transaction-view.js';
import { t } from '../../run-scope.js';

/** --gateway as the ledger names gateways: the base URL's identity, however spelled (protocol/gateway-identity.ts), or "sandbox". */
function gatewayOption(raw: unknown): string | undefined {
  const gateway = optionalText(raw, '--gateway')?.trim().replace(/\/+$/, '');
  if (gateway === '') throw new UsageError(t().commands.gatewayFilter);
  return gateway === undefined ? undefined : gatewayIdentity(gateway);
}

/** Which payments history lists; --format and --bom say how (output-format.ts). */
export const historyFilterOptions = {
  since: {
    flag: '--since <date>',
    help: {
      en: 'only payments recorded since a date, time or age (30m, 12h, 7d)',
      ru: 'только платежи, записанные в журнал с даты, времени или за срок (30m, 12h, 7d)',
    },
  },
  state: {
    flag: '--state <state>',
    help: { en: 'only payments in this state', ru: 'только платежи в этом состоянии' },
    choices: transactionStates,
  },
  gateway: {
    flag: '--gateway <base-url|sandbox>',
    help: {
      en: 'only payments made through this gateway (a Gateway column shows when several are listed)',
      ru: 'только платежи через этот шлюз (когда в списке их несколько, появляется столбец «Шлюз»)',
    },
    parse: gatewayOption,
  },
  operator: {
    flag: '--operator <name>',
    help: {
      en: 'only payments made by this operator (a team ledger records who made each)',
      ru: 'только платежи этого оператора (общий журнал команды записывает, кто провёл каждый)',
    },
  },
} as const satisfies OptionDefinitions;
