import { Command } from 'commander';
import type { LazyAction } from '../define.js';

export function receiptCommand(lazyAction: LazyAction): Command {
  return new Command('receipt')
    .description('print the receipt of a transaction in the ledger: what pay printed, with the voucher, the operator and the time')
    .usage('[options] <txn-id>')
    .argument('<txn-id>', 'the TransactionID')
    .option('--width <columns>', 'fit a receipt printer: no line wider than this (20 to 1000; 32 and 48 are usual)')
    .action(lazyAction(async () => (await import('./run.js')).runReceipt, 'txnId'));
}
