import { Command } from 'commander';
import type { LazyAction } from '../define.js';

export function historyCommand(lazyAction: LazyAction): Command {
  return new Command('history')
    .description("the ledger: latest state of each payment (the whole team's, with a PostgreSQL ledger)")
    .option('--since <date>', 'only payments journaled since a date, time or age (30m, 12h, 7d)')
    .option('--state <state>', 'only payments in this state: success, failed, pending, unknown')
    .option('--gateway <base-url|sandbox>', 'only payments made through this gateway (a Gateway column shows when several are listed)')
    .option('--operator <name>', 'only payments made by this operator (a team ledger records who made each)')
    .option('--format <format>', 'table (the default), csv (a header row, for spreadsheets) or json (one object a line, as --json)')
    .option('--bom', 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read UTF-8 (Cyrillic)')
    .action(lazyAction(async () => (await import('./run.js')).runHistory));
}
