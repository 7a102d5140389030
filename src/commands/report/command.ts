import { Command, Option } from 'commander';
import { collect, type LazyAction } from '../define.js';
import { dataFormats } from '../output-format.js';

export function reportCommand(lazyAction: LazyAction): Command {
  return new Command('report')
    .description("counts and exact sums of the ledger's payments over a day or a range, grouped, with a total per currency; reads only")
    .usage('[--date <day> | --since <time> --until <time>] [--by service|operator|currency|state] [--format table|csv|json] [options]')
    .option('--date <day>', 'the payments of this local day: YYYY-MM-DD, today or yesterday (the default)')
    .option('--since <time>', 'the payments since a date, time or age (30m, 12h, 7d), as history reads it')
    .option('--until <time>', 'with --since: the payments before this date, time or age (default: now)')
    .option('--by <dimension>', 'group by service, operator, currency or state; repeat or separate with commas (default: service,state)', collect, [])
    .addOption(new Option('--format <format>', 'table (the default), csv (a header row, for spreadsheets) or json (one object a line, as --json)').choices(dataFormats))
    .option('--bom', 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read UTF-8 (Cyrillic)')
    .action(lazyAction(async () => (await import('./run.js')).runReport));
}
