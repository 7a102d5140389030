import { Command } from 'commander';
import type { LazyAction } from '../define.js';

/** `agentpay ledger <subcommand>`: looking after the ledger itself. Each subcommand's run is a file of its own or two. */
export function ledgerCommand(lazyAction: LazyAction): Command {
  const ledger = new Command('ledger').description('look after the ledger: set up a team ledger on PostgreSQL, move a journal into it, write it out; compact a journal file');
  ledger
    .command('migrate')
    .description('set up or update the PostgreSQL ledger schema (done on first use too; run it once as a user allowed to create tables)')
    .action(lazyAction(async () => (await import('./run.js')).runMigrate));
  ledger
    .command('import')
    .argument('<journal>', "a journal file (JSON Lines), such as a terminal's $XDG_STATE_HOME/agentpay/journal.jsonl")
    .description('load a journal file into the PostgreSQL ledger; importing it again adds nothing; open payments stay open for reconcile')
    .action(lazyAction(async () => (await import('./run.js')).runImport, 'journal'));
  ledger
    .command('compact')
    .description('move closed transactions of the journal file into its dated archive, and damaged lines into <journal>.damaged')
    .action(lazyAction(async () => (await import('./compact.js')).runCompact));
  ledger
    .command('export')
    .description('write every record of the ledger to stdout as journal lines (JSON Lines), in the order they were recorded')
    .action(lazyAction(async () => (await import('./run.js')).runExport));
  return ledger;
}
