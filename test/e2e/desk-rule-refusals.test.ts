import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ordersFile } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, asRole, setPolicy } from '../helpers/desk-roles.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { migratedDatabase } from '../helpers/migrated-copy.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// A refusal by the desk's rules (a duplicate, a limit, an approval needed, no open shift) is
// exit 7 with --json's type DeskRuleRefusedError and the rule's name, never the typo's 2 and
// UsageError: a script tells them apart. Duplicates and limits on both ledgers; approvals and
// shifts exist on the team ledger alone. Nothing is sent in any of them.
const rig = teamLedgerRig();
const { payStatic, paymentsFor } = rig;

const backends = [
  { name: 'the SQLite ledger', env: async () => envFor(rig.sandbox, { AGENTPAY_SETTLE_DELAY: '20' }) },
  { name: 'PostgreSQL', env: async () => rig.terminal(await migratedDatabase(rig.server), 'ann') },
];

/** The one JSON line of a refusal on stderr. */
const errorOf = (stderr: string) => jsonLines(stderr).find((line) => 'error' in line)?.error as Record<string, unknown>;

async function refusedBy(rule: string, args: string[], env: Record<string, string>) {
  const result = await runCli(['--json', ...args], { env });
  expect(result.code, result.stderr).toBe(7);
  expect(errorOf(result.stderr)).toMatchObject({ exitCode: 7, type: 'DeskRuleRefusedError', rule });
  return result;
}

describe.each(backends)("the desk's rules on $name: exit 7, DeskRuleRefusedError", ({ env: envOf }) => {
  it('a duplicate top-up within the window, for pay and a bulk file', async () => {
    const env = await envOf();
    const account = `dup-${Math.random().toString(36).slice(2, 8)}`;
    // The first top-up is set-up, in-process; the refusal of the second is the bin's.
    expect((await runInProcess(payStatic(account), env)).code).toBe(0);
    const refused = await refusedBy('duplicate', payStatic(account), env);
    expect(errorOf(refused.stderr).message).toContain('duplicate top-up');
    const orders = ordersFile(['service,account,amount', `201,${account},150.00`]);
    const file = await refusedBy('duplicate', ['pay', '--from-file', orders, '--yes'], env);
    expect(errorOf(file.stderr).message).toContain('line 2');
    expect(paymentsFor(account)).toHaveLength(1);
  });

  it('a limit: over maxAmount for pay, over the daily limit for a bulk file', async () => {
    const env = await envOf();
    const account = `lim-${Math.random().toString(36).slice(2, 8)}`;
    await refusedBy('limit', payStatic(account, ['--max-amount', 'KZT=100.00']), env);
    const orders = ordersFile(['service,account,amount', `201,${account},150.00`]);
    await refusedBy('limit', ['--account-daily-limit', 'KZT=100.00', 'pay', '--from-file', orders, '--yes'], env);
    // A typo stays what it was: exit 2, UsageError.
    const typo = await runCli(['--json', ...payStatic(account, ['--amout', '15'])], { env });
    expect([typo.code, errorOf(typo.stderr).type]).toEqual([2, 'UsageError']);
    expect(paymentsFor(account)).toHaveLength(0);
  });
});

describe('the team ledger alone: approvals and shifts', { timeout: 60_000 }, () => {
  async function operator(tag: string) {
    const admin = await migratedDatabase(rig.server);
    const adminEnv = rig.terminal(admin, 'root');
    await addOperator(adminEnv, `anna_${tag}`);
    return { admin, adminEnv, anna: asRole(rig.terminal('', 'whoever'), admin, `anna_${tag}`) };
  }

  it("approval needed: over the profile's threshold, and over the ledger's", async () => {
    const { adminEnv, anna } = await operator('ap');
    await refusedBy('approval', payStatic('appr-1', ['--approval-over', 'KZT=100']), anna);
    await setPolicy(adminEnv, ['--approval-threshold', 'KZT=100']);
    await refusedBy('approval', payStatic('appr-2'), anna);
    expect([...paymentsFor('appr-1'), ...paymentsFor('appr-2')]).toHaveLength(0);
  });

  it("outside a shift: by the profile's `shifts: true`, and by the ledger's policy", async () => {
    const { adminEnv, anna } = await operator('sh');
    mkdirSync(join(anna.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
    const config = join(anna.XDG_CONFIG_HOME!, 'agentpay', 'config.json');
    writeFileSync(config, JSON.stringify({ profiles: { default: { shifts: true } } }));
    await refusedBy('shift', payStatic('shift-1'), anna);
    writeFileSync(config, JSON.stringify({ profiles: { default: {} } }));
    expect((await runCli(['ledger', 'policy', '--shifts', 'required'], { env: adminEnv })).code).toBe(0);
    await refusedBy('shift', payStatic('shift-2'), anna);
    const orders = ordersFile(['service,account,amount', '201,shift-3,150.00']);
    const bulk = await runCli(['--json', 'pay', '--from-file', orders, '--yes'], { env: anna });
    expect(bulk.code, bulk.stderr).toBe(7);
    expect(jsonLines(bulk.stdout)).toEqual([expect.objectContaining({ line: 2, state: 'not-sent', rule: 'shift' })]);
    expect([...paymentsFor('shift-1'), ...paymentsFor('shift-2'), ...paymentsFor('shift-3')]).toHaveLength(0);
  });
});
