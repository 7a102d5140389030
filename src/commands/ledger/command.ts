import { Command } from 'commander';
import type { LazyAction } from '../define.js';

/** `agentpay ledger <subcommand>`: looking after the ledger itself. Each subcommand's run is a file of its own. */
export function ledgerCommand(lazyAction: LazyAction): Command {
  const ledger = new Command('ledger').description('look after the ledger: compact the journal file');
  ledger.addCommand(
    new Command('compact')
      .description('move closed transactions of the journal file into its dated archive, and damaged lines into <journal>.damaged')
      .action(lazyAction(async () => (await import('./compact.js')).runCompact)),
  );
  return ledger;
}
