import { Command } from 'commander';
import { defaultCurrency } from '../../options/purchase.js';
import { addRequiredOption, type LazyAction } from '../define.js';

export function checkCommand(lazyAction: LazyAction): Command {
  const check = new Command('check').description('list the vouchers of a service for an account (AccountCheck)').usage('--service <id> --account <account> [options]');
  addRequiredOption(check, '--service <id>', 'service id');
  addRequiredOption(check, '--account <account>', 'customer account');
  return check
    .option('--amount <decimal>', 'Amount sent with the check (default 0)')
    .option('--currency <code>', `currency code (default ${defaultCurrency})`)
    .action(lazyAction(async () => (await import('./run.js')).runCheck));
}
