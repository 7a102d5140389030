import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, asRole, openShift } from '../helpers/desk-roles.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// A look-up records what it learned of a transaction the ledger holds, as reconcile would
// (purchase/look-up-record.ts): after `status --wait` took a pending payment to success,
// history, report and shift close agree without a reconcile, on both backends. `status` and what reads its
// record run through the bin; the payments before it, and the ledger's records read to compare, in-process.
let sandbox: RunningSandbox;
let server: PostgresServer;

beforeAll(async () => {
  // Each new payment stays in progress (code 11) for three Status polls.
  [sandbox, server] = await Promise.all([
    startSandbox({ recordRequests: true, behaviour: { pendingPolls: 3 } }),
    startPostgres(),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), server?.remove()]);
});

/** No settling after a payment; status --wait's polls begin at the settle delay, 20 ms instead of 500. */
const lookUps = { AGENTPAY_SETTLE_ATTEMPTS: '0', AGENTPAY_SETTLE_DELAY: '20' };

/** Roles are the cluster's: each terminal's its own. */
let roles = 0;

/** A terminal of the team ledger as an operator role, whose profile needs an open shift to pay. */
async function operatorTerminal(): Promise<Record<string, string>> {
  const admin = await freshDatabase(server);
  const role = `cora_l${++roles}`;
  await addOperator(envFor(sandbox, { AGENTPAY_LEDGER: admin }), role);
  const env = asRole(envFor(sandbox, lookUps), admin, role);
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  writeFileSync(
    join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'),
    JSON.stringify({ profiles: { default: { shifts: true } } }),
  );
  await openShift(env);
  return { ...env, ADMIN_URL: admin };
}

const backends = [
  {
    name: 'the SQLite ledger',
    shifts: false,
    env: async () => envFor(sandbox, lookUps),
  },
  { name: 'PostgreSQL, as an operator role', shifts: true, env: operatorTerminal },
];

const pay = (account: string) => ['pay', '--service', '201', '--account', account, '--amount', '150.00', '--json'];

describe.each(backends)('a look-up on $name', { timeout: 60_000 }, ({ env: envOf, shifts }) => {
  it('status --wait records the success it saw: history, report and shift close agree without reconcile', async () => {
    const env = await envOf();
    const paid = await runInProcess(pay('look-1'), env);
    expect(paid.code, paid.stderr).toBe(3);
    const id = String(jsonLines(paid.stdout)[0]!.transactionId);
    const before = jsonLines((await runInProcess(['history', '--json'], env)).stdout);
    expect(before.map((line) => [line.transactionId, line.state])).toEqual([[id, 'pending']]);

    const looked = await runCli(['status', id, '--wait', '30'], { env });
    expect(looked.code, looked.stderr).toBe(0);
    expect(looked.stdout).toContain('succeeded');

    const history = jsonLines((await runCli(['history', '--json'], { env })).stdout);
    expect(history.map((line) => [line.transactionId, line.state, line.requestId !== null])).toEqual([
      [id, 'success', true],
    ]);
    const report = jsonLines((await runCli(['report', '--date', 'today', '--by', 'state', '--json'], { env })).stdout);
    expect(report.map(({ from: _from, until: _until, ...line }) => line)).toEqual([
      { kind: 'group', state: 'success', currency: 'KZT', count: 1, sum: '150.00' },
      { kind: 'total', currency: 'KZT', count: 1, sum: '150.00' },
    ]);
    const reconcile = await runCli(['reconcile'], { env });
    expect([reconcile.code, reconcile.stderr]).toEqual([0, expect.stringContaining('nothing to reconcile')]);
    if (shifts) {
      const closed = await runCli(['--json', 'shift', 'close'], { env });
      expect(closed.code, closed.stderr).toBe(0);
      expect(jsonLines(closed.stdout)[0]).toMatchObject({
        totals: [{ currency: 'KZT', state: 'success', count: 1, sum: '150.00' }],
      });
      // Recorded as reconcile records it: its source, the attempt it answers, by the operator role.
      const records = await sql(
        env.ADMIN_URL!,
        `SELECT r.source, r.state, r.operator, r.answers_attempt = (SELECT max(a.seq) FROM agentpay_records a
           WHERE a.transaction_seq = r.transaction_seq AND a.kind = 'attempt') AS answers_latest
         FROM agentpay_records r WHERE r.kind = 'outcome' ORDER BY r.seq`,
      );
      expect(records).toEqual([
        { source: 'payment', state: 'pending', operator: `cora_l${roles}`, answers_latest: true },
        { source: 'reconcile', state: 'success', operator: `cora_l${roles}`, answers_latest: true },
      ]);
    }
  });

  it('an id the ledger does not hold records nothing; a look-up that learns nothing new adds no record', async () => {
    const env = await envOf();
    const paid = await runInProcess(pay('look-2'), env);
    const id = String(jsonLines(paid.stdout)[0]!.transactionId);
    const exported = async () => (await runInProcess(['ledger', 'export'], env)).stdout.trim().split('\n');
    const records = await exported();
    // Another agent's payment at the same gateway: not in this ledger.
    const foreign = await runInProcess(pay('look-3'), envFor(sandbox, lookUps));
    const foreignId = String(jsonLines(foreign.stdout)[0]!.transactionId);
    expect((await runCli(['status', foreignId], { env })).code).toBe(3);
    expect(await exported()).toEqual(records);
    // Still in progress: the same word again is no news.
    expect((await runCli(['status', id], { env })).code).toBe(3);
    expect(await exported()).toEqual(records);
    expect((await runCli(['status', id, '--wait', '30'], { env })).code).toBe(0);
    const after = await exported();
    expect(after.slice(0, records.length)).toEqual(records);
    expect(after.slice(records.length).map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ kind: 'outcome', transactionId: id, source: 'reconcile', view: expect.anything() }),
    ]);
  });
});
