import { Command } from 'commander';
import { defaultConcurrency } from '../../options/values.js';
import type { LazyAction } from '../define.js';

export function statusCommand(lazyAction: LazyAction): Command {
  return new Command('status')
    .description('look transactions up by TransactionID (Status)')
    .usage('[options] <txn-id...>  (or --from-file <path|->)')
    .argument('[txn-id...]', 'transaction ids')
    .option('--from-file <path>', 'read ids from a file, one a line; - reads stdin')
    .option('--wait <seconds>', 'poll a pending transaction until final or this many seconds pass')
    .option('--concurrency <n>', `look-ups in flight at once (default ${defaultConcurrency})`)
    .action(lazyAction(async () => (await import('./run.js')).runStatus));
}
