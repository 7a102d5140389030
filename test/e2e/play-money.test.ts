import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ordersFile } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, asRole } from '../helpers/desk-roles.js';
import { defaultLedger, ledgerRecords, sandboxLedger } from '../helpers/ledger-file.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Play money stays out of the books (docs/sandbox.md, "Its own journal"): a --sandbox or a
// --replay payment is recorded in a ledger of its own (sandbox-ledger.sqlite, replay-ledger.sqlite), whatever ledger the terminal is set to,
// so no live history, report or team ledger counts it; a row refused for a shift leaves no intent.
const rig = teamLedgerRig();
const { terminal, payStatic } = rig;
const accountsOf = (stdout: string) => jsonLines(stdout).map((line) => line.account);
const stateFile = (env: Record<string, string>, name: string) => join(env.XDG_STATE_HOME!, 'agentpay', name);

describe('play money on a terminal whose ledger is the team ledger', { timeout: 90_000 }, () => {
  it('a --sandbox and a --replay payment reach neither PostgreSQL nor the live history and report', async () => {
    const ledger = await freshDatabase(rig.server);
    const env = terminal(ledger, 'ann');
    expect((await runCli(payStatic('live-1'), { env })).code).toBe(0);
    const sandboxPaid = await runCli(['--sandbox', '--json', ...payStatic('play-sandbox')], { env });
    expect(sandboxPaid.code, sandboxPaid.stderr).toBe(0);
    const replay = ['--replay', mkdtempSync(join(tmpdir(), 'agentpay-play-')), '--replay-fallback'];
    const replayPaid = await runCli([...replay, '--json', ...payStatic('play-replay')], { env });
    expect(replayPaid.code, replayPaid.stderr).toBe(0);

    expect(await sql(ledger, 'SELECT account FROM agentpay_transactions')).toEqual([{ account: 'live-1' }]);
    expect(accountsOf((await runCli(['--json', 'history'], { env })).stdout)).toEqual(['live-1']);
    const report = await runCli(['--json', 'report', '--since', '1d', '--by', 'currency'], { env });
    expect(report.code, report.stderr).toBe(0);
    const totals = jsonLines(report.stdout).filter((line) => line.kind === 'total');
    expect(totals.map(({ currency, count, sum }) => ({ currency, count, sum }))).toEqual([
      { currency: 'KZT', count: 1, sum: '150.00' },
    ]);
    expect((await runCli(['reconcile'], { env })).code).toBe(0);
    expect((await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_records'))[0]).toEqual({ n: 2 });

    // Each reads its own: history with --sandbox, or with --replay.
    expect(accountsOf((await runCli(['--sandbox', '--json', 'history'], { env })).stdout)).toEqual(['play-sandbox']);
    expect(accountsOf((await runCli([...replay, '--json', 'history'], { env })).stdout)).toEqual(['play-replay']);
    for (const [file, account] of [
      [sandboxLedger(env), 'play-sandbox'],
      [stateFile(env, 'replay-ledger.sqlite'), 'play-replay'],
    ] as const) {
      const records = await ledgerRecords(file);
      expect(records.map((record) => (record.kind === 'intent' ? record.account : record.kind))).toEqual([
        account,
        'outcome',
      ]);
    }
    expect(existsSync(defaultLedger(env))).toBe(false);
  });

  it('refuses --sandbox with a --ledger or --journal flag: exit 2, nothing recorded', async () => {
    const ledger = await freshDatabase(rig.server);
    const env = terminal('', 'ann');
    for (const flag of ['--ledger', '--journal']) {
      const refused = await runCli(['--sandbox', flag, ledger, ...payStatic('play-flag')], { env });
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('records in a ledger of its own')]);
    }
    const tables = await sql(ledger, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'agentpay%'");
    expect(tables).toEqual([{ n: 0 }]);
  });

  it('names play money, never a --ledger it refuses, when a second person or a shift is asked for', async () => {
    const env = terminal('', 'ann');
    const asked = await runCli(
      ['--sandbox', 'pay', '--service', '202', '--account', '7011234567', '--amount', '1500.00', '--request-approval'],
      {
        env,
      },
    );
    const shift = await runCli(['--sandbox', 'shift', 'open'], { env });
    for (const refused of [asked, shift]) {
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--sandbox is play money')]);
      expect(refused.stderr).not.toContain('--ledger');
    }
  });
});

describe('a bulk run refused for want of an open shift', { timeout: 90_000 }, () => {
  it('writes no intent for its rows; a --sandbox payment there needs no shift and stays out of the ledger', async () => {
    const admin = await freshDatabase(rig.server);
    await addOperator(terminal(admin, 'root'), 'cora_s');
    const env = asRole(terminal('', 'whoever'), admin, 'cora_s');
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
    writeFileSync(
      join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'),
      JSON.stringify({ profiles: { default: { shifts: true } } }),
    );
    const orders = ordersFile(['service,account,amount', ...[1, 2, 3, 4, 5, 6].map((i) => `201,shiftless-${i},10.00`)]);
    const run = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(run.code).toBe(7);
    expect(jsonLines(run.stdout).map((line) => line.state)).toEqual(Array(6).fill('not-sent'));
    expect(rig.paymentsFor('shiftless-1')).toEqual([]);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);
    expect(jsonLines((await runCli(['--json', 'history'], { env })).stdout)).toEqual([]);
    // Play money is in no shift: the sandbox pays on the same terminal, and the team ledger stays empty.
    const played = await runCli(['--sandbox', ...payStatic('play-shiftless')], { env });
    expect(played.code, played.stderr).toBe(0);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);
  });
});
