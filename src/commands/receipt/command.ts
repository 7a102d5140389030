import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import type { OptionDefinitions } from '../../options/definition.js';
import { wholeNumberOption } from '../../options/values.js';
import type { LazyAction } from '../define.js';
import { addArgument, addOptions } from '../option.js';

const description: Said = {
  en: 'print the receipt of a transaction in the ledger: what pay printed, with the voucher, the operator and the time',
  ru: 'напечатать чек транзакции из журнала: то, что напечатал pay, с ваучером, оператором и временем',
};
const usage: Said = { en: '[options] <txn-id>', ru: '[флаги] <txn-id>' };

export const receiptOptions = {
  width: {
    flags: '--width <columns>',
    help: {
      en: 'fit a receipt printer: no line wider than this (20 to 1000; 32 and 48 are usual)',
      ru: 'под чековый принтер: ни одной строки шире этого (от 20 до 1000; обычно 32 или 48)',
    },
    parse: (raw: unknown) =>
      raw === undefined
        ? undefined
        : wholeNumberOption(raw, {
            fallback: '',
            maxDigits: 4,
            min: 20,
            max: 1000,
            flag: '--width',
            unit: 'columns',
          }),
  },
} as const satisfies OptionDefinitions;

export function receiptCommand(lazyAction: LazyAction, language: Language): Command {
  const receipt = new Command('receipt').description(description[language]).usage(usage[language]);
  addArgument(receipt, language, { name: '<txn-id>', help: { en: 'the TransactionID', ru: 'TransactionID' } });
  addOptions(receipt, language, receiptOptions);
  return receipt.action(lazyAction(async () => (await import('./run.js')).runReceipt, 'txnId'));
}
