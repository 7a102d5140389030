import { Command, Option } from 'commander';
import { garbageKinds } from '../../sandbox/garbage.js';
import { collect, type LazyAction } from '../define.js';

export function sandboxCommand(lazyAction: LazyAction): Command {
  return new Command('sandbox')
    .description('run the sandbox gateway in the foreground')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for a free one (default 8080)')
    .option('--state <path>', 'keep transactions in this file (default: in memory)')
    .option('--pending <n>', 'payments stay in progress for n Status polls (default 0)')
    .option('--latency <ms>', 'fault: wait this long before each answer')
    .option('--drop-after-commit <n>', 'fault: commit the next n payments, then cut the connection instead of answering')
    .option('--fail-rate <0..1>', 'fault: answer this share of committed payments with HTTP 500')
    .addOption(new Option('--garbage <kind>', 'fault: answer every request (after processing it) with a broken answer').choices(garbageKinds))
    .option('--break <rule>', 'break a spec rule on purpose, to test a conformance suite: idempotency, amount-check or echo (repeatable)', collect, [])
    .action(lazyAction(async () => (await import('./run.js')).runSandbox));
}
