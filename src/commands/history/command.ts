import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { dataFormatDefinitions } from '../output-format.js';
import { historyFilterOptions } from './options.js';

const description: Said = {
  en: "the ledger: latest state of each payment (the whole team's, with a PostgreSQL ledger)",
  ru: 'журнал: последнее состояние каждого платежа (всей команды, если журнал в PostgreSQL)',
};

export function historyCommand(lazyAction: LazyAction, language: Language): Command {
  const history = new Command('history').description(description[language]);
  return addOptions(history, language, { ...historyFilterOptions, ...dataFormatDefinitions }).action(
    lazyAction(async () => (await import('./run.js')).runHistory),
  );
}
