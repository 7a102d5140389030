import { Command } from 'commander';
import { defaultCurrency } from '../../options/purchase.js';
import type { LazyAction } from '../define.js';

export function buyCommand(lazyAction: LazyAction): Command {
  return new Command('buy')
    .description('interactive top-up at a terminal: pick a service, an account and a voucher, confirm, pay')
    .option('--service <id>', 'service id (asked when not given)')
    .option('--account <account>', 'customer account (asked when not given)')
    .option('--currency <code>', `currency code (asked when not given; default ${defaultCurrency})`)
    .option('--amount <decimal>', 'amount of a static voucher; for a dynamic one, starts the list on the voucher that costs exactly this')
    .option('--over-limit', 'pay even over a limit (maxAmount, dailyLimit, accountDailyLimit); the ledger records it')
    .option('--receipt <file>', 'write the receipt to this file as well, as plain text (agentpay receipt prints it again later)')
    .action(lazyAction(async () => (await import('./run.js')).runBuy));
}
