import { Command, Option } from 'commander';
import { transactionStates } from '../../protocol/transaction-view.js';
import type { LazyAction } from '../define.js';
import { dataFormats } from '../output-format.js';

export function historyCommand(lazyAction: LazyAction): Command {
  return new Command('history')
    .description("the ledger: latest state of each payment (the whole team's, with a PostgreSQL ledger)")
    .option('--since <date>', 'only payments journaled since a date, time or age (30m, 12h, 7d)')
    .addOption(new Option('--state <state>', 'only payments in this state').choices(transactionStates))
    .option('--gateway <base-url|sandbox>', 'only payments made through this gateway (a Gateway column shows when several are listed)')
    .option('--operator <name>', 'only payments made by this operator (a team ledger records who made each)')
    .addOption(new Option('--format <format>', 'table (the default), csv (a header row, for spreadsheets) or json (one object a line, as --json)').choices(dataFormats))
    .option('--bom', 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read UTF-8 (Cyrillic)')
    .action(lazyAction(async () => (await import('./run.js')).runHistory));
}
