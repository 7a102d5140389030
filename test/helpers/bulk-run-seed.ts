import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderRow } from '../../src/commands/pay/bulk/order-row.js';
import { runKeyOf } from '../../src/commands/pay/bulk/run.js';
import type { Ledger, Owner } from '../../src/ledger/ledger.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';

/**
 * The rows an earlier run of an order file kept in the ledger (a SQLite file or a postgres://
 * URL), as `pay --from-file` keeps them before its Payments leave (ledger/bulk-run.ts): through
 * the ledger's own code, under the run of that results file, each with the TransactionID given.
 */
export async function keepEarlierRun(
  ledgerAt: string,
  owner: Owner,
  resultsPath: string,
  rows: readonly { order: OrderRow; transactionId: string }[],
): Promise<void> {
  const location = parseLedgerLocation(ledgerAt, 'test');
  const by = { operator: 'ann', host: 'test-host' };
  const ledger: Ledger =
    location.kind === 'file'
      ? await SqliteLedger.open(location, { by, note: () => undefined })
      : await PostgresLedger.open(location, {
          env: {},
          operator: by.operator,
          stateDirectory: mkdtempSync(join(tmpdir(), 'agentpay-seed-')),
          note: () => undefined,
        });
  try {
    const run = await ledger.bulkRun(owner);
    await run.add(rows.map(({ order }) => order));
    await run.keep(
      runKeyOf(resultsPath),
      rows.map(({ order, transactionId }) => ({ line: order.line, transactionId })),
    );
    await run.close();
  } finally {
    await ledger.close();
  }
}

/** A row of `service,account,amount` (and its key) as `pay --from-file` reads it, at `line`. */
export const staticOrder = (line: number, key: string, service: string, account: string, amount: string): OrderRow => ({
  line,
  key,
  service,
  account,
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount,
});
