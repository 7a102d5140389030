import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderFormat } from '../../src/commands/pay/bulk/options.js';
import type { OrderRow } from '../../src/commands/pay/bulk/order-row.js';
import type { OrderNotation } from '../../src/commands/pay/bulk/order-text.js';
import { readOrders } from '../../src/commands/pay/bulk/rows.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';

const plain: OrderNotation = { delimiter: undefined, decimalComma: false, encoding: undefined };

/**
 * An order file read as `pay --from-file` reads it (commands/pay/bulk/rows.ts): into a fresh
 * SQLite ledger's table of the file, then every order read back from there in file order.
 */
export async function readOrderFile(
  path: string,
  given: OrderFormat | undefined,
  stdin: () => NodeJS.ReadableStream,
  notation: OrderNotation = plain,
) {
  const file = join(mkdtempSync(join(tmpdir(), 'agentpay-orders-')), 'ledger.sqlite');
  const ledger = await SqliteLedger.open(
    { kind: 'file', path: file, shown: file },
    { by: { operator: 'test', host: 'test-host' }, note: () => undefined },
  );
  try {
    const run = await ledger.bulkRun({ gateway: 'sandbox', agentId: '1001' });
    const read = await readOrders(path, given, stdin, notation, run);
    const rows: OrderRow[] = [];
    for (let after = 0; ; ) {
      const page = await run.page(after, 500);
      if (page.length === 0) break;
      for (const { line, key, service, account, currency, invoiceId, invoicePosition, amount } of page)
        rows.push({ line, key, service, account, currency, invoiceId, invoicePosition, amount });
      after = page.at(-1)!.line;
    }
    return { ...read, rows };
  } finally {
    await ledger.close();
  }
}
