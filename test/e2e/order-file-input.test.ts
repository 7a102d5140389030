import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { migrateLedger } from '../helpers/desk-roles.js';
import { envFor } from '../helpers/gateway-env.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// pay --from-file through the bin: an order file that is not what it claims (bytes that are not
// UTF-8, a control character, a field given twice, a cell over its bound) is refused whole,
// exit 2 naming each line, before anything is sent: the gateway sees no request at all, and a
// NUL never reaches the team ledger's PostgreSQL (which would fail it as "cannot be reached").
let sandbox: RunningSandbox;
let server: PostgresServer | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ recordRequests: true });
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), server?.remove()]);
});

function ordersFile(content: string | Buffer, name: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentpay-orders-')), name);
  writeFileSync(path, content);
  return path;
}

describe('pay --from-file refuses input that is not what it claims', () => {
  it('bytes that are not UTF-8: exit 2 naming the line and column, the hint says UTF-8, no request sent', async () => {
    const orders = ordersFile(
      Buffer.concat([
        Buffer.from('service,account,amount\n201,ok-1,10.00\n201,12'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('34,10.00\n'),
      ]),
      'orders.csv',
    );
    const received = sandbox.received.length;
    const result = await runCli(['pay', '--from-file', orders, '--yes'], { env: envFor(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('has 1 bad row, nothing was sent:\n  line 3: byte 0xFF at column 7 is not UTF-8');
    expect(result.stderr).toContain('--encoding windows-1251');
    expect(result.stdout).toBe('');
    expect(sandbox.received.length).toBe(received);
  });

  it('a NUL, a field given twice, a 10 MB account and a service that is no id: exit 2 naming each line and field, no request sent', async () => {
    const rows = [
      { service: '201', account: 'ok-1', amount: '10.00' },
      { service: '201', account: '12\u000034', amount: '10.00' },
      '{"service":"201","account":"1","amount":"10.00","account":"2"}',
      { service: '201', account: '7'.repeat(10 << 20), amount: '10.00' },
      { service: 'mobile', account: 'ok-2', amount: '10.00' },
    ];
    const orders = ordersFile(
      `${rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n')}\n`,
      'orders.jsonl',
    );
    const received = sandbox.received.length;
    const result = await runCli(['pay', '--from-file', orders, '--yes'], { env: envFor(sandbox) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'has 4 bad rows, nothing was sent:\n  line 2, account: holds the control character U+0000 at character 3',
    );
    expect(result.stderr).toContain('line 3, account: is given twice in the object');
    expect(result.stderr).toContain('line 4, account: is longer than 64 characters');
    expect(result.stderr).toContain('line 5, service: "mobile" is not a service id');
    expect(result.stderr.length).toBeLessThan(2000);
    expect(sandbox.received.length).toBe(received);
  });

  it('a NUL in a row with the team ledger on PostgreSQL: exit 2 (not 4, "ledger cannot be reached"), nothing in the ledger, no request sent', async () => {
    server = await startPostgres();
    const ledger = await freshDatabase(server);
    const env = envFor(sandbox, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: 'ann' });
    await migrateLedger(env);
    const orders = ordersFile('service,account,amount\n201,nul-1,10.00\n201,12\u000034,10.00\n', 'orders.csv');
    const received = sandbox.received.length;
    const result = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(result.stderr).toContain('line 3, account: holds the control character U+0000 at character 3');
    expect(result.code).toBe(2);
    expect(sandbox.received.length).toBe(received);
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);
  }, 60_000);
});
