import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperators, asRole, openShift, sessionAs } from '../helpers/desk-roles.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Cashier shifts (issue 28, step 3), through the bin: a role each, from a HOME each, with the
// profile's `shifts: true`; the Z-reports' chain checked, then broken by an administrator.
const rig = teamLedgerRig();
const { terminal, payStatic, paymentsFor } = rig;

/** A terminal whose default profile says payments need an open shift. */
function shiftTerminal(admin: string, role: string): Record<string, string> {
  const env = asRole(terminal('', 'whoever'), admin, role);
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  writeFileSync(
    join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'),
    JSON.stringify({ profiles: { default: { shifts: true } } }),
  );
  return env;
}

describe('shifts and their Z-reports', { timeout: 90_000 }, () => {
  it('needs an open shift to pay, will not close over a payment not final, chains the Z-reports', async () => {
    const admin = await freshDatabase(rig.server);
    const adminEnv = terminal(admin, 'root');
    await addOperators(adminEnv, [{ role: 'anna_s' }, { role: 'boris_s', supervisor: true }]);
    const anna = shiftTerminal(admin, 'anna_s');
    const boris = shiftTerminal(admin, 'boris_s');

    const outside = await runCli(payStatic('shift-0'), { env: anna });
    expect([outside.code, outside.stderr]).toEqual([7, expect.stringContaining('need an open shift')]);
    expect(paymentsFor('shift-0')).toEqual([]);
    expect((await runCli(['shift', 'open'], { env: anna })).code).toBe(0);
    const twice = await runCli(['shift', 'open'], { env: anna });
    expect([twice.code, twice.stderr]).toEqual([2, expect.stringContaining('has a shift open already')]);

    expect((await runCli(payStatic('shift-1'), { env: anna })).code).toBe(0);
    rig.sandbox.faults.dropAfterCommit = 1;
    // Payments whose answer was lost are set-up, in-process (through the bin: no-loss-settling.test.ts).
    const lost = await runInProcess(payStatic('shift-2'), { ...anna, AGENTPAY_SETTLE_ATTEMPTS: '0' });
    expect(lost.code).toBe(3);
    const pendingId = String(
      (await sql(admin, "SELECT transaction_id FROM agentpay_transactions WHERE account = 'shift-2'"))[0]!
        .transaction_id,
    );
    const x = jsonLines((await runCli(['--json', 'shift', 'x'], { env: anna })).stdout)[0]!;
    expect(x.totals).toEqual([
      { currency: 'KZT', state: 'success', count: 1, sum: '150.00' },
      { currency: 'KZT', state: 'unknown', count: 1, sum: '150.00' },
    ]);
    const xText = await runCli(['shift', 'x'], { env: anna });
    expect(xText.stdout).toContain('X-report');
    expect(Math.max(...xText.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(48);
    const csv = await runCli(['shift', 'x', '--format', 'csv'], { env: anna });
    expect(csv.stdout.split(/\r?\n/).slice(0, 2)).toEqual(['Currency,State,Count,Sum', 'KZT,success,1,150.00']);

    const refused = await runCli(['shift', 'close'], { env: anna });
    expect([refused.code, refused.stderr]).toEqual([3, expect.stringContaining(`${pendingId} (unknown)`)]);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_z_reports')).toEqual([{ n: 0 }]);
    // --settle asks the gateway first: the payment whose answer was lost had gone through.
    const closed = await runCli(['--json', 'shift', 'close', '--settle'], { env: anna });
    expect(closed.code, closed.stderr).toBe(0);
    const first = jsonLines(closed.stdout)[0]!;
    expect(first).toMatchObject({
      number: 1,
      previousHash: '0'.repeat(64),
      operator: 'anna_s',
      totals: [{ currency: 'KZT', state: 'success', count: 2, sum: '300.00' }],
      carried: [],
    });
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    const afterClose = await runCli(payStatic('shift-3'), { env: anna });
    expect([afterClose.code, afterClose.stderr]).toEqual([7, expect.stringContaining('need an open shift')]);

    // --carry-over closes over a payment not final (a plain close refuses: anna's, above), and lists it as carried.
    await openShift(boris);
    rig.sandbox.faults.dropAfterCommit = 1;
    expect((await runInProcess(payStatic('shift-4'), { ...boris, AGENTPAY_SETTLE_ATTEMPTS: '0' })).code).toBe(3);
    const carriedId = String(
      (await sql(admin, "SELECT transaction_id FROM agentpay_transactions WHERE account = 'shift-4'"))[0]!
        .transaction_id,
    );
    const zText = await runCli(['shift', 'close', '--carry-over'], { env: boris });
    expect([zText.code, zText.stderr]).toEqual([0, expect.stringContaining('shift closed: Z-report 2')]);
    expect(zText.stdout).toContain(carriedId);
    expect(Math.max(...zText.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(48);
    const [second] = await sql<{ content: string }>(admin, 'SELECT content FROM agentpay_z_reports WHERE number = 2');
    expect(JSON.parse(second!.content)).toMatchObject({
      number: 2,
      previousHash: first.hash,
      carried: [{ transactionId: carriedId, state: 'unknown' }],
    });
    const ofShift = await runCli(['report', '--shift', '1', '--by', 'operator', '--format', 'json'], { env: boris });
    expect(jsonLines(ofShift.stdout).filter((line) => line.kind === 'group')).toEqual([
      expect.objectContaining({ operator: 'anna_s', currency: 'KZT', count: 2, sum: '300.00' }),
    ]);
    const noSuch = await runCli(['report', '--shift', '9'], { env: boris });
    expect([noSuch.code, noSuch.stderr]).toEqual([2, expect.stringContaining('no Z-report 9')]);
    expect((await runCli(['report', '--shift', '1', '--date', 'today'], { env: boris })).code).toBe(2);
    const intact = await runCli(['shift', 'verify'], { env: boris });
    expect([intact.code, intact.stderr]).toEqual([0, expect.stringContaining('2 Z-reports are intact')]);

    // An operator cannot touch the reports, nor store one that does not follow the chain.
    const client = await sessionAs(admin, 'anna_s');
    const outcome = (statement: string, values: unknown[] = []) =>
      client.query(statement, values).then(
        () => 'done',
        (error: { code?: string }) => error.code,
      );
    try {
      expect(await outcome("UPDATE agentpay_z_reports SET content = '{}'")).toBe('42501');
      expect(await outcome('DELETE FROM agentpay_z_reports')).toBe('42501');
      expect(await outcome('UPDATE agentpay_shifts SET closed_at = NULL')).toBe('42501');
      await client.query('SELECT * FROM agentpay_open_shift()');
      expect(
        await outcome(
          'SELECT * FROM agentpay_close_shift((SELECT seq FROM agentpay_shifts WHERE closed_at IS NULL), \'{"number":1}\', $1)',
          ['0'.repeat(64)],
        ),
      ).toBe('APZCH');
    } finally {
      await client.end();
    }

    // An administrator rewrites a total of report 1: verify names it.
    await sql(
      admin,
      'UPDATE agentpay_z_reports SET content = replace(content, \'"300.00"\', \'"30.00"\') WHERE number = 1',
    );
    const broken = await runCli(['--json', 'shift', 'verify'], { env: boris });
    expect(broken.code).toBe(1);
    expect(jsonLines(broken.stdout)[0]).toMatchObject({ intact: false, break: { number: '1', why: 'hash' } });
    expect(broken.stderr).toContain('Z-report 1 is not as it was made');
  });

  it('refuses shifts on a journal file', async () => {
    const { AGENTPAY_LEDGER: _ledger, ...fileEnv } = terminal('', 'ann');
    const result = await runCli(['shift', 'open'], { env: fileEnv });
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining('shifts are kept by the team ledger')]);
  });
});
