import { Command } from 'commander';
import type { Language, Said } from '../../i18n/language.js';
import { addArgument, addOptions } from '../../options/commander.js';
import type { LazyAction } from '../define.js';
import { receiptOptions } from './options.js';

const description: Said = {
  en: 'print the receipt of a transaction in the ledger: what pay printed, with the voucher, the operator and the time',
  ru: 'напечатать чек транзакции из журнала: то, что напечатал pay, с ваучером, оператором и временем',
};
const usage: Said = { en: '[options] <txn-id>', ru: '[флаги] <txn-id>' };

export function receiptCommand(lazyAction: LazyAction, language: Language): Command {
  const receipt = new Command('receipt').description(description[language]).usage(usage[language]);
  addArgument(receipt, language, { name: '<txn-id>', help: { en: 'the TransactionID', ru: 'TransactionID' } });
  addOptions(receipt, language, receiptOptions);
  return receipt.action(lazyAction(async () => (await import('./run.js')).runReceipt, 'txnId'));
}
