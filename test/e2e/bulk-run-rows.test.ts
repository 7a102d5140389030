import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { ordersFile } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, asRole, sessionAs } from '../helpers/desk-roles.js';
import { envFor } from '../helpers/gateway-env.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// A bulk run's rows in the ledger, on both backends (ledger/bulk-run.ts): the file's keys and
// purchases twice found by the ledger's queries; the rows a run kept, with their TransactionIDs,
// found again by the next run of the same file, which refuses the rows the file changed or lost.
let sandbox: RunningSandbox;
let server: PostgresServer;

beforeAll(async () => {
  [sandbox, server] = await Promise.all([startSandbox({ recordRequests: true }), startPostgres()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), server?.remove()]);
});

const payments = () => sandbox.received.filter((form) => form.get('RequestType') === 'Payment');

const backends = [
  { name: 'the SQLite ledger', env: async () => envFor(sandbox, { AGENTPAY_SETTLE_DELAY: '20' }) },
  {
    name: 'PostgreSQL',
    env: async () =>
      envFor(sandbox, {
        AGENTPAY_LEDGER: await freshDatabase(server),
        AGENTPAY_OPERATOR: 'ann',
        AGENTPAY_SETTLE_DELAY: '20',
      }),
  },
];

describe.each(backends)('a bulk run on $name', ({ env: envOf }) => {
  it('refuses a key given twice and the same purchase twice, naming both lines, and sends nothing', async () => {
    const env = await envOf();
    const before = sandbox.received.length;
    const keys = ordersFile([
      'key,service,account,amount',
      'k-1,201,t-1,10.00',
      'k-2,201,t-2,20.00',
      'k-1,201,t-3,30.00',
    ]);
    const keyTwice = await runCli(['pay', '--from-file', keys, '--yes'], { env });
    expect(keyTwice.code).toBe(2);
    expect(keyTwice.stderr).toContain('line 4, key: "k-1" is the key of line 2 too');
    const purchases = ordersFile([
      'key,service,account,amount',
      'k-1,201,t-1,10.00',
      'k-2,201,t-2,20.00',
      'k-3,201,t-2,20.00',
    ]);
    const purchaseTwice = await runCli(['pay', '--from-file', purchases, '--yes'], { env });
    expect(purchaseTwice.code).toBe(7);
    expect(purchaseTwice.stderr).toContain('line 4: the same purchase as line 3');
    expect(sandbox.received.length).toBe(before);
  });

  it('keeps every row with its TransactionID; the next run of the file skips them, and refuses it changed or cut short', async () => {
    const env = await envOf();
    const lines = ['key,service,account,amount', 'k-1,201,u-1,10.00', 'k-2,201,u-2,20.00', 'k-3,201,u-3,30.00'];
    const orders = ordersFile(lines);
    const first = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    const paid = jsonLines(first.stdout).map((line) => [line.line, line.transactionId]);
    expect(paid).toHaveLength(3);
    const sent = payments().length;

    const again = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).map((line) => [line.line, line.transactionId, line.skipped])).toEqual(
      paid.map(([line, id]) => [line, id, true]),
    );
    expect(payments().length).toBe(sent);

    writeFileSync(orders, `${[...lines.slice(0, 3), 'k-3,201,u-3,31.00'].join('\n')}\n`);
    const changed = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('line 4 amount "30.00" → "31.00"');
    writeFileSync(orders, `${lines.slice(0, 3).join('\n')}\n`);
    const cut = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(cut.code).toBe(2);
    expect(cut.stderr).toContain('line 4 is gone');
    expect(payments().length).toBe(sent);
    // A row added at the end of the file is a row of the same run, paid once.
    writeFileSync(orders, `${[...lines, 'k-4,201,u-4,40.00'].join('\n')}\n`);
    const grown = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('3 rows already final (skipped), 0 open (settled by Status), 1 to pay');
    expect(payments().length).toBe(sent + 1);
  });
});

describe('a bulk run on PostgreSQL as an operator role', () => {
  it('keeps its rows in agentpay_bulk_rows, which the role may add to and read, but not change', async () => {
    const url = await freshDatabase(server);
    await addOperator(envFor(sandbox, { AGENTPAY_LEDGER: url }), 'bulk_anna');
    const anna = asRole(envFor(sandbox, { AGENTPAY_SETTLE_DELAY: '20' }), url, 'bulk_anna');
    const orders = ordersFile(['key,service,account,amount', 'k-1,201,v-1,10.00']);
    const paid = await runCli(['--json', 'pay', '--from-file', orders, '--yes'], { env: anna });
    expect(paid.code, paid.stderr).toBe(0);
    const rows = await sql(url, 'SELECT line, transaction_id FROM agentpay_bulk_rows');
    expect(rows).toEqual([{ line: 2, transaction_id: jsonLines(paid.stdout)[0]!.transactionId }]);
    const session = await sessionAs(url, 'bulk_anna');
    try {
      await expect(session.query("UPDATE agentpay_bulk_rows SET transaction_id = '1'")).rejects.toThrow(
        /permission denied/,
      );
    } finally {
      await session.end();
    }
  });
});
