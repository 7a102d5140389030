import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { accountDefinition, currencyDefinition, serviceDefinition } from '../../options/purchase.js';
import type { LazyAction } from '../define.js';

const description: Said = {
  en: 'list the vouchers of a service for an account (AccountCheck)',
  ru: 'список ваучеров услуги для счёта (AccountCheck)',
};
const usage: Said = {
  en: '--service <id> --account <account> [options]',
  ru: '--service <id> --account <счёт> [флаги]',
};

const options: OptionDefinitions = {
  service: { ...serviceDefinition, required: true },
  account: { ...accountDefinition, required: true },
  amount: {
    flag: '--amount <decimal>',
    help: { en: 'Amount sent with the check (default 0)', ru: 'Amount, передаваемый с проверкой (по умолчанию 0)' },
  },
  currency: currencyDefinition,
};

export function checkCommand(lazyAction: LazyAction, language: Language): Command {
  const check = new Command('check').description(description[language]).usage(usage[language]);
  return addOptions(check, language, options).action(lazyAction(async () => (await import('./run.js')).runCheck));
}
