import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/ledger/postgres/schema.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { migrateLedger } from '../helpers/desk-roles.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// The team ledger's database going away before or during a payment: nothing sent, or the
// outcome kept on this machine until the database is back.
const rig = teamLedgerRig();
const { terminal, payStatic, paymentsFor } = rig;

describe('a team ledger on PostgreSQL when its database goes away', () => {
  it('sends nothing when the database is down before a payment: exit 4, the ledger named without its password', async () => {
    const ledger = await freshDatabase(rig.server);
    const env = terminal(ledger, 'ann');
    await rig.server.stop();
    try {
      const result = await runCli(payStatic('db-down'), { env });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(
        /the ledger postgres:\/\/agentpay:\*\*\*@127\.0\.0\.1:\d+\/\w+ cannot be reached \(ECONNREFUSED\); no payment was sent/,
      );
      expect(result.stderr).not.toContain(rig.server.password);
      expect(paymentsFor('db-down')).toHaveLength(0);
      const doctor = await runCli(['doctor'], { env });
      expect(doctor.code).toBe(4);
      expect(doctor.stdout).toContain('postgres://agentpay:***@');
      expect(doctor.stdout + doctor.stderr).not.toContain(rig.server.password);
    } finally {
      await rig.server.start();
    }
  });

  it('keeps an outcome on this machine when the database goes away mid-payment, and the next command delivers it', async () => {
    const ledger = await freshDatabase(rig.server);
    const env = terminal(ledger, 'ann');
    await migrateLedger(env);
    rig.sandbox.faults.latencyMs = 1000;
    let paying: Promise<Awaited<ReturnType<typeof runCli>>> | undefined;
    try {
      const before = paymentsFor('mid-payment').length;
      paying = runCli(payStatic('mid-payment'), { env });
      // The Payment is at the gateway (its intent committed): the database goes away now.
      for (let waited = 0; paymentsFor('mid-payment').length === before && waited < 10_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await rig.server.stop();
    } finally {
      rig.sandbox.faults.latencyMs = 0;
    }
    const paid = await paying!;
    await rig.server.start();
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toContain('Payment succeeded');
    expect(paid.stderr).toContain(
      'kept on this machine and delivered by the next agentpay command that reaches the ledger',
    );
    const fallback = join(env.XDG_STATE_HOME!, 'agentpay', 'ledger-fallback');
    expect(readdirSync(fallback)).toHaveLength(1);

    const doctor = await runCli(['--json', 'doctor'], { env });
    expect(jsonLines(doctor.stdout)[0]?.ledger).toMatchObject({
      kind: 'postgres',
      ok: true,
      schemaVersion,
      waiting: 1,
    });
    const history = await runCli(['--json', 'history'], { env });
    expect(history.stderr).toContain('delivered 1 outcome kept on this machine');
    expect(jsonLines(history.stdout).map((line) => [line.account, line.state])).toEqual([['mid-payment', 'success']]);
    expect(readdirSync(fallback)).toHaveLength(0);
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_open')).toEqual([{ n: 0 }]);
  });
});
