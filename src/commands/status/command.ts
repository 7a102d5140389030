import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument, addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { statusOptions } from './options.js';

const description: Said = {
  en: 'look transactions up by TransactionID (Status)',
  ru: 'найти транзакции по TransactionID (Status)',
};
const usage: Said = {
  en: '[options] <txn-id...>  (or --from-file <path|->)',
  ru: '[флаги] <txn-id...>  (или --from-file <путь|->)',
};

export function statusCommand(lazyAction: LazyAction, language: Language): Command {
  const status = new Command('status').description(description[language]).usage(usage[language]);
  addArgument(status, language, { name: '[txn-id...]', help: { en: 'transaction ids', ru: 'id транзакций' } });
  return addOptions(status, language, statusOptions).action(
    lazyAction(async () => (await import('./run.js')).runStatus),
  );
}
