import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import {
  defaultCurrency,
  overLimitDefinition,
  receiptFileDefinition,
  requestApprovalDefinition,
} from '../../options/purchase.js';
import type { LazyAction } from '../define.js';

const description: Said = {
  en: 'interactive top-up at a terminal: pick a service, an account and a voucher, confirm, pay',
  ru: 'пополнение в диалоге за терминалом: выбрать услугу, счёт и ваучер, подтвердить, оплатить',
};

/** buy asks for what is not given, so its purchase options say so. */
const options: OptionDefinitions = {
  service: {
    flag: '--service <id>',
    help: { en: 'service id (asked when not given)', ru: 'id услуги (спросит, если не задан)' },
  },
  account: {
    flag: '--account <account>',
    help: { en: 'customer account (asked when not given)', ru: 'счёт клиента (спросит, если не задан)' },
  },
  currency: {
    flag: '--currency <code>',
    help: {
      en: `currency code (asked when not given; default ${defaultCurrency})`,
      ru: `код валюты (спросит, если не задан; по умолчанию ${defaultCurrency})`,
    },
  },
  amount: {
    flag: '--amount <decimal>',
    help: {
      en: 'amount of a static voucher; for a dynamic one, starts the list on the voucher that costs exactly this',
      ru: 'сумма статического ваучера; для динамического список начнётся с ваучера ровно этой цены',
    },
  },
  overLimit: overLimitDefinition,
  requestApproval: requestApprovalDefinition,
  receipt: receiptFileDefinition,
};

export function buyCommand(lazyAction: LazyAction, language: Language): Command {
  return addOptions(new Command('buy').description(description[language]), language, options).action(
    lazyAction(async () => (await import('./run.js')).runBuy),
  );
}
