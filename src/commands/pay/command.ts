import { Command } from 'commander';
import { defaultCurrency } from '../../options/purchase.js';
import { addRequiredOption, type LazyAction } from '../define.js';

export function payCommand(lazyAction: LazyAction): Command {
  const pay = new Command('pay')
    .description('pay a voucher: --invoice-id for a dynamic one (its exact OrderAmount is sent), --amount for a static one')
    .usage(
      '--service <id> --account <account> (--invoice-id <id> | --amount <decimal>) [options]\n       agentpay pay --from-file <orders.csv|orders.jsonl|-> [--dry-run | --yes] [options]',
    );
  const bulk = { attribute: 'fromFile', flag: '--from-file' };
  addRequiredOption(pay, '--service <id>', 'service id', bulk);
  addRequiredOption(pay, '--account <account>', 'customer account', bulk);
  return pay
    .option('--currency <code>', `currency code (default ${defaultCurrency})`)
    .option('--invoice-id <id>', 'InvoiceId from `agentpay check` (dynamic voucher)')
    .option('--amount <decimal>', 'amount of a static voucher; with --invoice-id it must equal the OrderAmount exactly')
    .option('--txn-id <digits>', 'TransactionID to use (default: a fresh unique one); the same id never pays twice')
    .option('--yes', 'through a live profile: pay without asking (a script must say it); with --from-file: pay the file (without it: a dry run)')
    .option('--receipt <file>', 'write the receipt to this file as well, as plain text (agentpay receipt prints it again later)')
    .option('--dry-run', 'print the Payment form that would be sent, and send nothing (with --from-file: the plan, after the AccountChecks)')
    .option('--over-limit', 'pay even over a limit (maxAmount, dailyLimit, accountDailyLimit); the ledger records it')
    .option('--allow-duplicate', 'pay even when the same payment was made within the duplicate window; the ledger records it')
    .option('--from-file <path>', 'bulk top-ups: one payment per row of a CSV (with a header) or JSON Lines file, - for stdin (docs/commands.md)')
    .option('--from-format <format>', 'with --from-file: csv or jsonl (default: by the extension, else by the first character)')
    .option('--results <path>', 'with --from-file: the results file (default: beside the input, orders.results.csv; required with -)')
    .option('--concurrency <n>', 'with --from-file: rows in flight at once (default 4)')
    .action(lazyAction(async () => (await import('./run.js')).runPay));
}
