import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/ledger/postgres/schema.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli, spawnAgentpay } from '../helpers/cli.js';
import { foreignCodes, startForeignGateway } from '../helpers/foreign-gateway.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { payKilledAtRandomPoints } from '../helpers/kill-trials.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Several terminals, each a HOME of its own, paying and reconciling through one team ledger
// on a real PostgreSQL server (test/helpers/team-ledger.ts).
const rig = teamLedgerRig();
const { terminal, payStatic, paymentsFor } = rig;

describe('a team ledger on PostgreSQL shared by several terminals', () => {
  it('is set up on first use from an empty database, once when two processes start at once', async () => {
    const ledger = await freshDatabase(rig.server);
    const results = await Promise.all(
      [1, 2, 3].map(() => runCli(['--json', 'ledger', 'migrate'], { env: terminal(ledger, 'ann') })),
    );
    expect(results.map((result) => result.code)).toEqual([0, 0, 0]);
    const applied = results.flatMap((result) => jsonLines(result.stdout)).flatMap((line) => line.applied as unknown[]);
    expect(applied, 'each migration applied by exactly one of them').toHaveLength(schemaVersion);
    expect(await sql(ledger, 'SELECT version FROM agentpay_schema_migrations ORDER BY version')).toEqual(
      Array.from({ length: schemaVersion }, (_, index) => ({ version: index + 1 })),
    );
    const again = await runCli(['ledger', 'migrate'], { env: terminal(ledger, 'ann') });
    expect(again.stderr).toContain(`is up to date (schema version ${schemaVersion})`);
  });

  it('takes payments from several terminals at once; history shows the whole team with Operator and Host, --operator filters', async () => {
    const ledger = await freshDatabase(rig.server);
    const operators = ['ann', 'bob', 'cid', 'dee', 'eve', 'fay'];
    const results = await Promise.all(
      operators.map((operator) => runCli(payStatic(`team-${operator}`), { env: terminal(ledger, operator) })),
    );
    expect(results.map((result) => result.code)).toEqual(operators.map(() => 0));
    const rows = await sql(
      ledger,
      'SELECT operator, count(*)::int AS n FROM agentpay_transactions GROUP BY operator ORDER BY operator',
    );
    expect(rows).toEqual(operators.map((operator) => ({ operator, n: 1 })));

    const table = await runCli(['history'], { env: terminal(ledger, 'ann') });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\| When +\| Operator +\| Host +\| Approved by +\| TransactionID/);
    for (const operator of operators) expect(table.stdout).toContain(`| ${operator} `);
    const bobs = await runCli(['--json', 'history', '--operator', 'bob'], { env: terminal(ledger, 'ann') });
    expect(jsonLines(bobs.stdout).map((line) => [line.account, line.operator, line.state])).toEqual([
      ['team-bob', 'bob', 'success'],
    ]);
  });

  it('refuses a TransactionID another terminal used for another purchase: exit 2, nothing sent', async () => {
    const ledger = await freshDatabase(rig.server);
    const first = await runCli(payStatic('guard-a', ['--txn-id', '7700001']), { env: terminal(ledger, 'ann') });
    expect(first.code).toBe(0);
    const second = await runCli(payStatic('guard-b', ['--txn-id', '7700001']), { env: terminal(ledger, 'bob') });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('transaction 7700001 was already used');
    expect(paymentsFor('guard-b')).toHaveLength(0);
    // The same purchase again from the other terminal is the safe retry: asked again, paid once.
    const retry = await runCli(payStatic('guard-a', ['--txn-id', '7700001']), { env: terminal(ledger, 'bob') });
    expect(retry.code).toBe(0);
    expect(new Set(paymentsFor('guard-a').map((form) => form.get('TransactionID')))).toEqual(new Set(['7700001']));
  });

  it('two reconcilers at once work each open transaction once and close them all', async () => {
    const ledger = await freshDatabase(rig.server);
    // Open transactions the gateway made: payments whose answers were lost (the connection cut after commit),
    // paid in-process (in-process-run.ts): pays at once through the bin are the test above.
    rig.sandbox.faults.dropAfterCommit = 12;
    const env = terminal(ledger, 'ann', { AGENTPAY_SETTLE_ATTEMPTS: '0' });
    const paid = await Promise.all(Array.from({ length: 12 }, (_, i) => runInProcess(payStatic(`rec-${i}`), env)));
    rig.sandbox.faults.dropAfterCommit = 0;
    expect(paid.map((result) => result.code)).toEqual(Array(12).fill(3));
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_open')).toEqual([{ n: 12 }]);

    const before = rig.sandbox.received.length;
    const [a, b] = await Promise.all([
      runCli(['--json', 'reconcile'], { env: terminal(ledger, 'cron-1') }),
      runCli(['--json', 'reconcile'], { env: terminal(ledger, 'cron-2') }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const asked = rig.sandbox.received.slice(before).filter((form) => form.get('RequestType') === 'Status');
    expect(asked, 'one Status per open transaction across both reconcilers').toHaveLength(12);
    expect(new Set(asked.map((form) => form.get('TransactionID'))).size).toBe(12);
    expect(jsonLines(a.stdout).length + jsonLines(b.stdout).length).toBe(12);
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_open')).toEqual([{ n: 0 }]);
    // Outcomes are appended: each transaction keeps its lost answer's record and reconcile's.
    const states = await sql(ledger, "SELECT state, source FROM agentpay_records WHERE kind = 'outcome' ORDER BY seq");
    expect(states.filter((row) => row.source === 'reconcile' && row.state === 'success')).toHaveLength(12);
  });

  it('killed at random points: every payment the gateway committed is in the ledger and settled by reconcile; none twice', async () => {
    const ledger = await freshDatabase(rig.server);
    const own = await startSandbox({ faults: { latencyMs: 40 } });
    try {
      // Two terminals, taking turns.
      const terminals: [Record<string, string>, Record<string, string>] = [
        envFor(own, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: 'ann' }),
        envFor(own, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: 'bob' }),
      ];
      const pay = (account: string, index: number) =>
        spawnAgentpay(payStatic(account), {
          env: terminals[index % 2 === 0 ? 0 : 1],
          stdio: 'ignore',
        });
      await payKilledAtRandomPoints(pay, 8);
      const reconcile = await runCli(['reconcile', '--json', '--grace', '0'], { env: terminals[0] });
      expect(reconcile.code).toBe(0);

      const committed = own.store.all();
      const intents = new Set(
        (await sql(ledger, 'SELECT transaction_id FROM agentpay_transactions')).map((row) => row.transaction_id),
      );
      for (const transaction of committed) expect(intents.has(transaction.transactionId)).toBe(true);
      const accounts = committed.map((t) => t.account);
      expect(new Set(accounts).size, 'no purchase paid twice').toBe(accounts.length);
      const history = jsonLines((await runCli(['history', '--json'], { env: terminals[1] })).stdout);
      expect(history.every((h) => h.state === 'success' || h.state === 'failed')).toBe(true);
      expect(new Set(history.filter((h) => h.state === 'success').map((h) => h.transactionId))).toEqual(
        new Set(committed.map((t) => t.transactionId)),
      );
    } finally {
      await own.close();
    }
  }, 60_000);

  it('refuses to update or delete a record: outcomes are appended, never rewritten', async () => {
    const ledger = await freshDatabase(rig.server);
    expect((await runInProcess(payStatic('append-only'), terminal(ledger, 'ann'))).code).toBe(0);
    await expect(sql(ledger, "UPDATE agentpay_records SET state = 'failed'")).rejects.toThrow(/append-only/);
    await expect(sql(ledger, 'DELETE FROM agentpay_transactions')).rejects.toThrow(/append-only/);
  });

  it('keeps a payment a foreign gateway leaves in progress open, team-wide, until reconcile hears it is done', async () => {
    const ledger = await freshDatabase(rig.server);
    const gateway = await startForeignGateway('in-progress');
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: gateway.baseUrl,
        AGENTPAY_AGENT_ID: '77',
        AGENTPAY_PASSWORD: 'pw',
        AGENTPAY_LEDGER: ledger,
        AGENTPAY_PENDING_CODES: String(foreignCodes.inProgress),
        AGENTPAY_SETTLE_ATTEMPTS: '1',
        AGENTPAY_SETTLE_DELAY: '10',
      });
      const paid = await runCli(
        [
          'pay',
          '--service',
          '5',
          '--account',
          'foreign-1',
          '--amount',
          '10.00',
          '--currency',
          'KZT',
          '--txn-id',
          '880001',
        ],
        { env },
      );
      expect(paid.code).toBe(3);
      expect(
        await sql(
          ledger,
          'SELECT t.transaction_id FROM agentpay_open o JOIN agentpay_transactions t ON t.seq = o.transaction_seq',
        ),
      ).toEqual([{ transaction_id: '880001' }]);
      gateway.complete('880001');
      // Another machine's cron, with the same gateway settings, settles it.
      const reconciled = await runCli(['--json', 'reconcile'], {
        env: { ...env, HOME: `${env.HOME}-cron`, XDG_STATE_HOME: `${env.HOME}-cron/state` },
      });
      expect(jsonLines(reconciled.stdout).map((line) => [line.transactionId, line.state])).toEqual([
        ['880001', 'success'],
      ]);
      expect(await sql(ledger, "SELECT state FROM agentpay_records WHERE kind = 'outcome' ORDER BY seq")).toEqual([
        { state: 'pending' },
        { state: 'success' },
      ]);
    } finally {
      await gateway.close();
    }
  });
});
