import { Command } from 'commander';
import type { LazyAction } from '../define.js';

export function historyCommand(lazyAction: LazyAction): Command {
  return new Command('history')
    .description('the journal: latest state of each payment')
    .option('--since <date>', 'only payments journaled since a date, time or age (30m, 12h, 7d)')
    .option('--state <state>', 'only payments in this state: success, failed, pending, unknown')
    .option('--gateway <base-url|sandbox>', 'only payments made through this gateway (a Gateway column shows when several are listed)')
    .action(lazyAction(async () => (await import('./run.js')).runHistory));
}
