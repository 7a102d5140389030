import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { reconcileOptions } from './options.js';

const description: Said = {
  en: "settle every recorded payment not yet final with Status; or, with --registry, compare the ledger with the provider's registry; safe to run from cron",
  ru: 'довести до конца каждый незавершённый платёж журнала через Status; или, с --registry, сверить журнал с реестром провайдера; можно запускать из cron',
};

export function reconcileCommand(lazyAction: LazyAction, language: Language): Command {
  const reconcile = new Command('reconcile').description(description[language]);
  return addOptions(reconcile, language, reconcileOptions).action(
    lazyAction(async () => (await import('./run.js')).runReconcile),
  );
}
