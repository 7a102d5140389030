import { Command } from 'commander';
import { defaultConcurrency } from '../../options/values.js';
import type { LazyAction } from '../define.js';

export function reconcileCommand(lazyAction: LazyAction): Command {
  return new Command('reconcile')
    .description("settle every journaled payment not yet final with Status; or, with --registry, compare the ledger with the provider's registry; safe to run from cron")
    .option('--since <date>', 'only payments journaled since a date (2026-11-21), time (ISO 8601) or age (30m, 12h, 7d)')
    .option('--grace <seconds>', '"not found" becomes final ("never made") only after this age (default 120)')
    .option('--concurrency <n>', `look-ups in flight at once (default ${defaultConcurrency})`)
    .option('--registry <file>', "compare the ledger with this registry (реестр) of the provider's payments: exit 0 when they agree, 1 when not")
    .option('--registry-format <name|file>', 'the registry layout: tsv (default), csv (default for *.csv), or a JSON/YAML mapping file (docs/registries.md)')
    .option('--date <day>', "the ledger's day to compare (2026-11-21, today, yesterday; default: the registry's own dates)")
    .option('--settle', 'ask Status first for open ledger payments of those days (the registry lists them as paid), and record the answers')
    .option('--format <format>', 'the lists as table (default), csv or json (one object a line)')
    .option('--bom', 'with --format csv: start with a byte order mark, for spreadsheet programs that need it to read Cyrillic')
    .action(lazyAction(async () => (await import('./run.js')).runReconcile));
}
