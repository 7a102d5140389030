import { Command } from 'commander';
import { defaultConcurrency } from '../../options/values.js';
import type { LazyAction } from '../define.js';

export function reconcileCommand(lazyAction: LazyAction): Command {
  return new Command('reconcile')
    .description('settle every journaled payment not yet final with Status; safe to run from cron')
    .option('--since <date>', 'only payments journaled since a date (2026-11-21), time (ISO 8601) or age (30m, 12h, 7d)')
    .option('--grace <seconds>', '"not found" becomes final ("never made") only after this age (default 120)')
    .option('--concurrency <n>', `look-ups in flight at once (default ${defaultConcurrency})`)
    .action(lazyAction(async () => (await import('./run.js')).runReconcile));
}
