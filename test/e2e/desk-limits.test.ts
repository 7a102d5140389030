import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { type ForeignGateway, foreignCodes, startForeignGateway } from '../helpers/foreign-gateway.js';
import { envFor, paymentsReceived, sandboxCodeEnv } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// Limits and duplicate top-ups (docs/desk-safety.md), through the bin, against the sandbox reached
// by URL and a gateway with other codes, with the local ledger and with a PostgreSQL ledger
// that several terminals share. Every refusal sends nothing. A payment made only so that a later one is
// weighed against it is paid in-process (in-process-run.ts), through the same pay command.
let server: PostgresServer;
let sandbox: RunningSandbox;
let foreign: ForeignGateway;

beforeAll(async () => {
  [server, sandbox, foreign] = await Promise.all([
    startPostgres(),
    startSandbox({ recordRequests: true }),
    startForeignGateway('refused'),
  ]);
}, 30_000);

afterAll(async () => {
  await Promise.all([server?.remove(), sandbox?.close(), foreign?.close()]);
});

const payStatic = (account: string, amount: string, extra: string[] = []) => [
  'pay',
  '--service',
  '201',
  '--account',
  account,
  '--amount',
  amount,
  ...extra,
];
const paymentsTo = (account: string) => paymentsReceived(sandbox).filter((form) => form.get('Account') === account);

/** A terminal whose default profile is the desk's: the sandbox by URL, limits from the profile. */
function deskTerminal(profile: Record<string, unknown>, extra: Record<string, string> = {}): Record<string, string> {
  const env = isolatedEnv({
    ...sandboxCodeEnv,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
    AGENTPAY_SETTLE_DELAY: '20',
    ...extra,
  });
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  const config = {
    profiles: { default: { baseUrl: sandbox.baseUrl, agentId: sandboxCredentials.agentId, ...profile } },
  };
  writeFileSync(join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'), JSON.stringify(config));
  return env;
}

const ledgerIntents = async (env: Record<string, string>) =>
  (await ledgerRecords(defaultLedger(env))).filter((record) => record.kind === 'intent');

describe('limits, with the local ledger', () => {
  it('maxAmount: refused with the limit and the amount, a flag cannot raise it, --over-limit pays and is recorded with the operator', async () => {
    const env = deskTerminal({ maxAmount: { KZT: '100.00' }, operator: 'ann' });
    const refused = await runCli(payStatic('max-1', '150.00', ['--max-amount', 'KZT=1000']), { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(
      '150.00 KZT is over the limit for one payment of 100.00 KZT (profile "default"); nothing was sent',
    );
    expect(refused.stderr).toContain('--over-limit');
    expect(paymentsTo('max-1')).toHaveLength(0);

    const over = await runCli(payStatic('max-1', '150.00', ['--over-limit']), { env });
    expect(over.code).toBe(0);
    expect(paymentsTo('max-1')).toHaveLength(1);
    expect((await ledgerIntents(env)).at(-1)).toMatchObject({
      account: 'max-1',
      operator: 'ann',
      overrides: ['over-limit'],
    });
    // Lifting nothing records nothing.
    expect((await runCli(payStatic('max-2', '50.00', ['--over-limit']), { env })).code).toBe(0);
    expect((await ledgerIntents(env)).at(-1)).not.toHaveProperty('overrides');
  });

  it("dailyLimit: the operator's payments of the day, exactly; a failed one does not count", async () => {
    const env = deskTerminal({ operator: 'ann' });
    const limit = ['--daily-limit', 'KZT=300.00'];
    expect((await runInProcess(payStatic('day-1', '150.00', limit), env)).code).toBe(0);
    // The sandbox refuses this account: no money moved, so it counts for nothing.
    expect((await runInProcess(payStatic('0000000000', '150.00', limit), env)).code).toBe(1);
    expect((await runCli(payStatic('day-2', '150', limit), { env })).code).toBe(0);
    const third = await runCli(payStatic('day-3', '0.01', limit), { env });
    expect(third.code).toBe(7);
    expect(third.stderr).toContain(
      "0.01 KZT would take ann's payments today from 300.00 to 300.01 KZT, over the daily limit of 300.00 KZT (--daily-limit)",
    );
    expect(paymentsTo('day-3')).toHaveLength(0);
    // Another operator on this machine has a day of their own.
    expect((await runCli(payStatic('day-3', '0.01', limit), { env: { ...env, AGENTPAY_OPERATOR: 'bob' } })).code).toBe(
      0,
    );
  });
});

describe('duplicate top-ups, with the local ledger', () => {
  it('refused with the earlier transaction named; the same TransactionID is the safe retry; --allow-duplicate pays and is recorded', async () => {
    const env = envFor(sandbox, { AGENTPAY_OPERATOR: 'ann' });
    const first = await runInProcess(['--json', ...payStatic('dup-1', '150.00')], env);
    expect(first.code).toBe(0);
    const earlier = String(jsonLines(first.stdout)[0]?.transactionId);

    const again = await runCli(payStatic('dup-1', '150'), { env });
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(
      `refused as a duplicate top-up: the same payment was made once recently (transaction ${earlier}, 150.00 KZT to account dup-1 on service 201`,
    );
    expect(again.stderr).toContain('by ann, success); nothing was sent');
    expect(again.stderr).toContain(`--txn-id ${earlier}`);
    expect(paymentsTo('dup-1')).toHaveLength(1);

    expect((await runCli(payStatic('dup-1', '150.00', ['--txn-id', earlier]), { env })).code).toBe(0);
    // A flag only lengthens the window: shortening it is the desk's decision, in the profile.
    expect((await runCli(payStatic('dup-1', '150.00', ['--duplicate-window', '0']), { env })).code).toBe(7);
    const allowed = await runCli(payStatic('dup-1', '150.00', ['--allow-duplicate']), { env });
    expect(allowed.code).toBe(0);
    // Two payments: the retry sent the first one's TransactionID again, which pays nothing twice.
    expect(new Set(paymentsTo('dup-1').map((form) => form.get('TransactionID'))).size).toBe(2);
    expect((await ledgerIntents(env)).at(-1)).toMatchObject({ account: 'dup-1', overrides: ['allow-duplicate'] });
    // Another amount, or another account, is another payment.
    expect((await runCli(payStatic('dup-1', '151.00'), { env })).code).toBe(0);
    expect((await runCli(payStatic('dup-2', '150.00'), { env })).code).toBe(0);
  });

  it('against a gateway with other codes: its refusal (configured as failed) is no duplicate; an answer it has not classified is', async () => {
    const base = {
      AGENTPAY_BASE_URL: foreign.baseUrl,
      AGENTPAY_AGENT_ID: '77',
      AGENTPAY_PASSWORD: 'x',
      AGENTPAY_SETTLE_ATTEMPTS: '0',
    };
    const classified = isolatedEnv({ ...base, AGENTPAY_FAILED_CODES: String(foreignCodes.refused) });
    expect((await runInProcess(payStatic('f-1', '10.00'), classified)).code).toBe(1);
    expect((await runCli(payStatic('f-1', '10.00'), { env: classified })).code).toBe(1);
    const unclassified = isolatedEnv(base);
    expect((await runCli(payStatic('f-2', '10.00'), { env: unclassified })).code).toBe(3);
    const again = await runCli(payStatic('f-2', '10.00'), { env: unclassified });
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('unknown); nothing was sent');
    expect(
      foreign.received.filter((form) => form.get('RequestType') === 'Payment' && form.get('Account') === 'f-2'),
    ).toHaveLength(1);
  });
});

describe('with a PostgreSQL ledger, across the desk', () => {
  const terminal = (ledger: string, operator: string) =>
    envFor(sandbox, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: operator, AGENTPAY_SETTLE_DELAY: '20' });

  it("another terminal's payment is a duplicate, and counts toward the account's day; --allow-duplicate is recorded with the operator", async () => {
    const ledger = await freshDatabase(server);
    const ann = terminal(ledger, 'ann');
    const bob = terminal(ledger, 'bob');
    expect((await runInProcess(payStatic('pg-1', '150.00'), ann)).code).toBe(0);

    const duplicate = await runCli(payStatic('pg-1', '150.00'), { env: bob });
    expect(duplicate.code).toBe(7);
    expect(duplicate.stderr).toContain('by ann, success); nothing was sent');
    const overAccount = await runCli(payStatic('pg-1', '60.00', ['--account-daily-limit', 'KZT=200']), { env: bob });
    expect(overAccount.code).toBe(7);
    expect(overAccount.stderr).toContain(
      "60.00 KZT would take account pg-1's payments today from 150.00 to 210.00 KZT",
    );
    expect(paymentsTo('pg-1')).toHaveLength(1);

    expect(
      (await runCli(payStatic('pg-1', '150.00', ['--allow-duplicate', '--daily-limit', 'KZT=150.00']), { env: bob }))
        .code,
    ).toBe(0);
    // bob's own day: 150.00 so far; one more is over his limit, not ann's.
    expect((await runCli(payStatic('pg-2', '1', ['--daily-limit', 'KZT=150.00']), { env: bob })).code).toBe(7);
    expect((await runCli(payStatic('pg-2', '1', ['--daily-limit', 'KZT=150.00']), { env: ann })).code).toBe(7);
    expect((await runCli(payStatic('pg-3', '1', ['--daily-limit', 'KZT=151.00']), { env: ann })).code).toBe(0);
    const rows = await sql(
      ledger,
      "SELECT t.account, r.operator, r.overrides FROM agentpay_records r JOIN agentpay_transactions t ON t.seq = r.transaction_seq WHERE r.kind = 'attempt' ORDER BY r.seq",
    );
    expect(rows).toEqual([
      { account: 'pg-1', operator: 'ann', overrides: null },
      { account: 'pg-1', operator: 'bob', overrides: ['allow-duplicate'] },
      { account: 'pg-3', operator: 'ann', overrides: null },
    ]);
  });

  it("a bulk file on the shared ledger: another terminal's payment counts toward the file's accounts; every row paid once, then skipped", async () => {
    const ledger = await freshDatabase(server);
    const ann = terminal(ledger, 'ann');
    const bob = terminal(ledger, 'bob');
    expect((await runInProcess(payStatic('pb-1', '100.00'), ann)).code).toBe(0);
    const orders = join(bob.HOME!, 'orders.csv');
    writeFileSync(orders, 'service,account,amount\n201,pb-1,60.00\n201,pb-2,70.00\n201,pb-3,80.00\n');
    const bulk = (limit: string) =>
      runCli(['pay', '--from-file', orders, '--yes', '--json', '--account-daily-limit', limit], { env: bob });

    const refused = await bulk('KZT=150');
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(
      "line 2, amount: 60.00 KZT would take account pb-1's payments today from 100.00 to 160.00 KZT",
    );
    expect([...paymentsTo('pb-2'), ...paymentsTo('pb-3')]).toEqual([]);

    const paid = await bulk('KZT=200');
    expect(paid.code).toBe(0);
    expect(jsonLines(paid.stdout).map((line) => [line.account, line.state])).toEqual([
      ['pb-1', 'success'],
      ['pb-2', 'success'],
      ['pb-3', 'success'],
    ]);
    const again = await bulk('KZT=200');
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout).map((line) => line.skipped)).toEqual([true, true, true]);
    expect([paymentsTo('pb-1').length, paymentsTo('pb-2').length, paymentsTo('pb-3').length]).toEqual([2, 1, 1]);
    // Each row's attempt and its outcome in the shared ledger, and nothing left open.
    expect(
      await sql(ledger, 'SELECT kind, count(*)::int AS records FROM agentpay_records GROUP BY kind ORDER BY kind'),
    ).toEqual([
      { kind: 'attempt', records: 4 },
      { kind: 'outcome', records: 4 },
    ]);
  });
});
