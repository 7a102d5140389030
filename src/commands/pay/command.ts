import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addOptions } from '../../options/commander.js';
import type { OptionDefinitions } from '../../options/definition.js';
import {
  accountDefinition,
  currencyDefinition,
  overLimitDefinition,
  receiptFileDefinition,
  requestApprovalDefinition,
  serviceDefinition,
} from '../../options/purchase.js';
import type { LazyAction } from '../define.js';
import { metricsOptions } from '../metrics-options.js';
import { bulkOnlyDefinitions, fromFileDefinition } from './bulk/options.js';

const description: Said = {
  en: 'pay a voucher: --invoice-id for a dynamic one (its exact OrderAmount is sent), --amount for a static one',
  ru: 'оплатить ваучер: --invoice-id для динамического (отправляется его точный OrderAmount), --amount для статического',
};
const usage: Said = {
  en: '--service <id> --account <account> (--invoice-id <id> | --amount <decimal>) [options]\n       agentpay pay --approved <txn-id> [options]\n       agentpay pay --from-file <orders.csv|orders.jsonl|-> [--dry-run | --yes] [options]',
  ru: '--service <id> --account <счёт> (--invoice-id <id> | --amount <сумма>) [флаги]\n       agentpay pay --approved <txn-id> [флаги]\n       agentpay pay --from-file <заказы.csv|заказы.jsonl|-> [--dry-run | --yes] [флаги]',
};

const approvedDefinition = {
  flag: '--approved <txn-id>',
  help: {
    en: 'send the purchase a supervisor approved, exactly as it was asked for, under its TransactionID; a repeat sends nothing',
    ru: 'отправить покупку, одобренную старшим кассиром, ровно в том виде, в каком её запросили, с её TransactionID; повтор ничего не отправит',
  },
} as const;

/** One payment's options; a bulk run takes them from its file's rows instead. */
const options: OptionDefinitions = {
  service: { ...serviceDefinition, required: { unless: [fromFileDefinition, approvedDefinition] } },
  account: { ...accountDefinition, required: { unless: [fromFileDefinition, approvedDefinition] } },
  currency: currencyDefinition,
  invoiceId: {
    flag: '--invoice-id <id>',
    help: {
      en: 'InvoiceId from `agentpay check` (dynamic voucher)',
      ru: 'InvoiceId из `agentpay check` (динамический ваучер)',
    },
  },
  amount: {
    flag: '--amount <decimal>',
    help: {
      en: 'amount of a static voucher; with --invoice-id it must equal the OrderAmount exactly',
      ru: 'сумма статического ваучера; вместе с --invoice-id должна в точности совпасть с OrderAmount',
    },
  },
  txnId: {
    flag: '--txn-id <digits>',
    help: {
      en: 'TransactionID to use (default: a fresh unique one); the same id never pays twice',
      ru: 'TransactionID платежа (по умолчанию новый уникальный); один и тот же id никогда не платит дважды',
    },
  },
  yes: {
    flag: '--yes',
    help: {
      en: 'through a live profile: pay without asking (a script must say it); with --from-file: pay the file (without it: a dry run)',
      ru: 'через боевой профиль: платить без вопроса (скрипт обязан это указать); с --from-file: оплатить файл (без него: пробный прогон)',
    },
  },
  receipt: receiptFileDefinition,
  dryRun: {
    flag: '--dry-run',
    help: {
      en: 'print the Payment form that would be sent, and send nothing (with --from-file: the plan, after the AccountChecks)',
      ru: 'показать форму Payment, которая была бы отправлена, и ничего не отправлять (с --from-file: план, после AccountCheck)',
    },
  },
  overLimit: overLimitDefinition,
  allowDuplicate: {
    flag: '--allow-duplicate',
    help: {
      en: 'pay even when the same payment was made within the duplicate window; the ledger records it',
      ru: 'платить даже если такой же платёж был в окне дублей; журнал это запишет',
    },
  },
  requestApproval: requestApprovalDefinition,
  approved: approvedDefinition,
  fromFile: fromFileDefinition,
  ...bulkOnlyDefinitions,
  ...metricsOptions,
};

export function payCommand(lazyAction: LazyAction, language: Language): Command {
  const pay = new Command('pay').description(description[language]).usage(usage[language]);
  return addOptions(pay, language, options).action(lazyAction(async () => (await import('./run.js')).runPay));
}
