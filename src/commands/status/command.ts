import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { waitOption } from '../../options/purchase.js';
import { lookupConcurrencyDefinition } from '../../options/values.js';
import type { LazyAction } from '../define.js';
import { addArgument, addOptions } from '../option.js';

const description: Said = {
  en: 'look transactions up by TransactionID (Status)',
  ru: 'найти транзакции по TransactionID (Status)',
};
const usage: Said = {
  en: '[options] <txn-id...>  (or --from-file <path|->)',
  ru: '[флаги] <txn-id...>  (или --from-file <путь|->)',
};

export const statusOptions = {
  fromFile: {
    flags: '--from-file <path>',
    help: {
      en: 'read ids from a file, one a line; - reads stdin',
      ru: 'читать id из файла, по одному в строке; - читает stdin',
    },
  },
  wait: {
    flags: '--wait <seconds>',
    help: {
      en: 'poll a pending transaction until final or this many seconds pass',
      ru: 'опрашивать незавершённую транзакцию, пока она не станет окончательной или не пройдёт столько секунд',
    },
    parse: waitOption,
  },
  concurrency: lookupConcurrencyDefinition,
} as const satisfies OptionDefinitions;

export function statusCommand(lazyAction: LazyAction, language: Language): Command {
  const status = new Command('status').description(description[language]).usage(usage[language]);
  addArgument(status, language, { name: '[txn-id...]', help: { en: 'transaction ids', ru: 'id транзакций' } });
  return addOptions(status, language, statusOptions).action(
    lazyAction(async () => (await import('./run.js')).runStatus),
  );
}
