import { Command } from 'commander';
import { defaultCurrency } from '../../options/purchase.js';
import { addRequiredOption, type LazyAction } from '../define.js';

export function payCommand(lazyAction: LazyAction): Command {
  const pay = new Command('pay')
    .description('pay a voucher: --invoice-id for a dynamic one (its exact OrderAmount is sent), --amount for a static one')
    .usage('--service <id> --account <account> (--invoice-id <id> | --amount <decimal>) [options]');
  addRequiredOption(pay, '--service <id>', 'service id');
  addRequiredOption(pay, '--account <account>', 'customer account');
  return pay
    .option('--currency <code>', `currency code (default ${defaultCurrency})`)
    .option('--invoice-id <id>', 'InvoiceId from `agentpay check` (dynamic voucher)')
    .option('--amount <decimal>', 'amount of a static voucher; with --invoice-id it must equal the OrderAmount exactly')
    .option('--txn-id <digits>', 'TransactionID to use (default: a fresh unique one); the same id never pays twice')
    .option('--yes', 'through a live profile: pay without asking (a script must say it)')
    .option('--receipt <file>', 'write the receipt to this file as well, as plain text (agentpay receipt prints it again later)')
    .option('--dry-run', 'print the Payment form that would be sent, and send nothing')
    .option('--over-limit', 'pay even over a limit (maxAmount, dailyLimit, accountDailyLimit); the ledger records it')
    .option('--allow-duplicate', 'pay even when the same payment was made within the duplicate window; the ledger records it')
    .action(lazyAction(async () => (await import('./run.js')).runPay));
}
