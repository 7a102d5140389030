import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { codeOf } from '../helpers/desk-attacks.js';
import { addOperators, asRole, openShift, sessionAs, setPolicy } from '../helpers/desk-roles.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { linesOf } from '../helpers/journal-lines.js';
import { migratedDatabase } from '../helpers/migrated-copy.js';
import { sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Issue 38, attacks 1 to 5: the desk's rules kept by the database (desk-rules-schema.ts), tried
// through the bin and as the operator role itself with plain SQL, each person from a HOME of
// their own. No profile sets a threshold or shifts here: the ledger's policy alone must hold.
const rig = teamLedgerRig();
const { terminal, payStatic, paymentsFor } = rig;
let second: RunningSandbox | undefined;
beforeAll(async () => {
  second = await startSandbox({ recordRequests: true });
});
afterAll(() => second?.close());

/** An administrator, an operator and a supervisor on a database of their own; the policy as given. */
async function desk(tag: string, policy: string[]) {
  const admin = await migratedDatabase(rig.server);
  const adminEnv = terminal(admin, 'root');
  const names = { anna: `anna_${tag}`, boris: `boris_${tag}` };
  await addOperators(adminEnv, [{ role: names.anna }, { role: names.boris, supervisor: true }]);
  if (policy.length > 0) await setPolicy(adminEnv, policy);
  return {
    admin,
    adminEnv,
    names,
    anna: asRole(terminal('', 'whoever'), admin, names.anna),
    boris: asRole(terminal('', 'whoever'), admin, names.boris),
  };
}

/** The rig's static payment, for another amount. */
const withAmount = (args: string[], amount: string) =>
  args.map((arg, index) => (args[index - 1] === '--amount' ? amount : arg));

const intentSql = `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, at, operator, host)
  VALUES ($1, '1001', $2, '201', $3, $4, 'KZT', now(), 'x', 'h')`;

describe("the desk's rules, kept by the database", { timeout: 90_000 }, () => {
  it("refuses an intent over the ledger's threshold from the CLI, an import, a retry and plain SQL", async () => {
    const { admin, adminEnv, anna, names } = await desk('t', []);
    // Paid (in-process: set-up) before the threshold was set: its safe retry stays possible after.
    const before = jsonLines((await runInProcess(['--json', ...payStatic('thr-0')], anna)).stdout)[0]!;
    expect(before.state).toBe('success');
    expect((await runCli(['ledger', 'policy', '--approval-threshold', 'KZT=100'], { env: adminEnv })).code).toBe(0);
    const shown = await runCli(['--json', 'ledger', 'policy'], { env: anna });
    expect(jsonLines(shown.stdout)[0]).toMatchObject({ approvalOver: [{ currency: 'KZT', over: '100' }] });

    // The client tells it before anything (its question included); the database refuses it anyway.
    const plain = await runCli(payStatic('thr-1'), { env: anna });
    expect([plain.code, plain.stderr]).toEqual([7, expect.stringMatching(/needs a second person: .*team ledger/)]);
    // An operator's own threshold may only be lower: a higher one in the flags changes nothing.
    const higher = await runCli(payStatic('thr-1', ['--approval-over', 'KZT=1000000']), { env: anna });
    expect(higher.code).toBe(7);

    // A journal line holding the intent, imported, then the "safe retry" of it.
    const journal = join(anna.HOME!, 'old.jsonl');
    const txn = '1796000000000000001';
    const record = {
      kind: 'intent' as const,
      gateway: rig.sandbox.baseUrl.replace(/\/+$/, ''),
      agentId: '1001',
      transactionId: txn,
      service: '201',
      account: 'thr-2',
      amount: '150.00',
      currency: 'KZT',
      invoiceId: null,
      at: new Date().toISOString(),
    };
    writeFileSync(journal, linesOf([record]));
    const imported = await runCli(['ledger', 'import', journal], { env: anna });
    expect([imported.code, imported.stderr]).toEqual([7, expect.stringContaining('approval threshold')]);
    // The payment's hint (--request-approval) is no step an import can take: it has none.
    expect(imported.stderr).not.toContain('--request-approval');
    const retry = await runCli(payStatic('thr-2', ['--txn-id', txn]), { env: anna });
    expect([retry.code, retry.stderr]).toEqual([7, expect.stringContaining('approval threshold')]);
    expect([...paymentsFor('thr-1'), ...paymentsFor('thr-2')]).toEqual([]);

    const client = await sessionAs(admin, names.anna);
    try {
      expect(await codeOf(client, intentSql, [record.gateway, '1796000000000000002', 'thr-3', '150.00'])).toBe('APTHR');
      expect(await codeOf(client, intentSql, [record.gateway, '1796000000000000003', 'thr-3', '1e9'])).toBe('APTHR');
      const lowerCase = intentSql.replace("'KZT'", "'kzt'");
      expect(await codeOf(client, lowerCase, [record.gateway, '1796000000000000004', 'thr-3', '150.00'])).toBe('APCUR');
      expect(await codeOf(client, 'UPDATE agentpay_approval_thresholds SET over = 1e12')).toBe('42501');
      expect(await codeOf(client, 'DELETE FROM agentpay_approval_thresholds')).toBe('42501');
    } finally {
      await client.end();
    }
    const raise = await runCli(['ledger', 'policy', '--approval-threshold', 'KZT=1000000'], { env: anna });
    expect([raise.code, raise.stderr]).toEqual([2, expect.stringContaining('permission denied')]);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 1 }]);
    const again = await runCli(payStatic('thr-0', ['--txn-id', String(before.transactionId)]), { env: anna });
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining(String(before.transactionId))]);

    // Under it, a payment goes; a file's row over it is refused alone, named, nothing sent for it.
    expect((await runCli(withAmount(payStatic('thr-4'), '99.99'), { env: anna })).code).toBe(0);
    const orders = join(anna.HOME!, 'orders.csv');
    writeFileSync(
      orders,
      'key,service,account,currency,invoice-id,amount\nR1,201,thr-5,KZT,,150.00\nR2,201,thr-6,KZT,,50.00\n',
    );
    const bulk = await runCli(['--json', 'pay', '--from-file', orders, '--yes'], { env: anna });
    expect(bulk.code, bulk.stderr).toBe(7);
    const rows = jsonLines(bulk.stdout).filter((line) => line.key !== undefined);
    expect(rows.map((row) => [row.key, row.state])).toEqual([
      ['R1', 'not-sent'],
      ['R2', 'success'],
    ]);
    expect(JSON.stringify(rows[0])).toContain('approval threshold');
    expect(paymentsFor('thr-5')).toEqual([]);
  });

  it('decides the request of the gateway meant, and refuses an ambiguous TransactionID', async () => {
    const { anna, boris, names } = await desk('g', ['--approval-threshold', 'KZT=100']);
    const txn = '1796000000000000011';
    // The two requests are set-up, in-process (desk-approvals.test.ts requests through the bin).
    const big = await runInProcess(payStatic('amb-big', ['--txn-id', txn, '--request-approval']), anna);
    expect([big.code, big.stderr]).toEqual([3, expect.stringContaining('awaits')]);
    const onSecond = ['--base-url', second!.baseUrl];
    const small = withAmount(payStatic('amb-small', ['--txn-id', txn, '--request-approval']), '10.00');
    expect((await runInProcess([...onSecond, ...small], anna)).code).toBe(3);

    const listed = await runCli(['approvals'], { env: boris });
    expect(listed.stdout).toContain(second!.baseUrl.replace(/\/+$/, ''));
    expect(listed.stdout).toContain('agent 1001');
    const nowhere = await runCli(['--base-url', 'http://127.0.0.1:9/', 'approve', txn], { env: boris });
    expect([nowhere.code, nowhere.stderr]).toEqual([2, expect.stringContaining('more than one request')]);
    expect(nowhere.stderr).toContain('150.00 KZT');
    expect(nowhere.stderr).toContain('10.00 KZT');

    const approved = await runCli([...onSecond, 'approve', txn], { env: boris });
    expect([approved.code, approved.stderr]).toEqual([0, expect.stringContaining('10.00 KZT to amb-small')]);
    const bigPay = await runCli(['pay', '--approved', txn], { env: anna });
    expect([bigPay.code, bigPay.stderr]).toEqual([2, expect.stringContaining('still awaits')]);
    expect(paymentsFor('amb-big')).toEqual([]);
    const smallPay = await runCli([...onSecond, 'pay', '--approved', txn], { env: anna });
    expect(smallPay.code, smallPay.stderr).toBe(0);
    expect(
      second!.received.filter((form) => form.get('RequestType') === 'Payment').map((f) => f.get('Amount')),
    ).toEqual(['10.00']);
    expect(names.anna).toBeDefined();
  });

  it('lets no operator forge an approval, or take a payment out of the open set, with plain SQL', async () => {
    const { admin, anna, boris, names } = await desk('f', []);
    const gateway = rig.sandbox.baseUrl.replace(/\/+$/, '');
    const txn = '1796000000000000021';
    // An approved request, set up in-process (desk-approvals.test.ts runs both through the bin).
    expect((await runInProcess(payStatic('forge-0', ['--txn-id', txn, '--request-approval']), anna)).code).toBe(3);
    expect((await runInProcess(['approve', txn], boris)).code).toBe(0);
    const client = await sessionAs(admin, names.anna);
    const forge = (id: string, account: string) =>
      codeOf(
        client,
        `WITH t AS (INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, at, operator, host)
           VALUES ($1, '1001', $2, '201', $3, '999999.00', 'KZT', now(), 'x', 'h') RETURNING seq),
         a AS (INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
           SELECT gen_random_uuid(), seq, 'attempt', now(), 'x', 'h', ARRAY[$4, $5] FROM t RETURNING transaction_seq)
         INSERT INTO agentpay_open (transaction_seq) SELECT transaction_seq FROM a`,
        [gateway, id, account, `requested-by:${names.anna}`, `approved-by:${names.boris}`],
      );
    try {
      // Under the approved request's TransactionID, another purchase; under a new one, the marks alone.
      expect(await forge(txn, 'forge-1')).toBe('APREQ');
      expect(await forge('1796000000000000022', 'forge-2')).toBe('APNON');
      // A payment whose answer was lost: written ahead, open, then hidden from every reconciler.
      await client.query(intentSql, [gateway, '1796000000000000023', 'forge-3', '50.00']);
      await client.query(
        `INSERT INTO agentpay_open (transaction_seq) SELECT seq FROM agentpay_transactions WHERE account = 'forge-3'`,
      );
      expect(await codeOf(client, 'DELETE FROM agentpay_open')).toBe('42501');
      expect(await codeOf(client, 'TRUNCATE agentpay_open')).toBe('42501');
      expect(await codeOf(client, 'UPDATE agentpay_open SET transaction_seq = transaction_seq')).toBe('P0001');
    } finally {
      await client.end();
    }
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_open')).toEqual([{ n: 1 }]);
    const history = jsonLines((await runCli(['--json', 'history'], { env: boris })).stdout);
    expect(history.filter((line) => line.approvedBy !== undefined)).toEqual([]);
    // The approved purchase itself still goes, once, and its success closes it; its safe retry is no new intent.
    expect((await runCli(['pay', '--approved', txn], { env: anna })).code).toBe(0);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_open')).toEqual([{ n: 1 }]);
    const retry = await runCli(payStatic('forge-0', ['--txn-id', txn]), { env: anna });
    expect([retry.code, retry.stderr]).toEqual([0, expect.stringContaining(txn)]);
    expect(await sql(admin, "SELECT count(*)::int AS n FROM agentpay_transactions WHERE account = 'forge-0'")).toEqual([
      { n: 1 },
    ]);
  });

  it('puts every payment in its shift by the database: none outside one, none missed by the close', async () => {
    const { admin, anna, names } = await desk('s', ['--shifts', 'required']);
    const outside = await runCli(payStatic('sh-0'), { env: anna });
    expect([outside.code, outside.stderr]).toEqual([7, expect.stringContaining('open shift on this team ledger')]);
    expect(paymentsFor('sh-0')).toEqual([]);
    expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);

    await openShift(anna);
    const client = await sessionAs(admin, names.anna);
    try {
      // An intent in flight when the close begins: the close waits for it, and its report counts it.
      await client.query('BEGIN');
      await client.query(intentSql, [rig.sandbox.baseUrl.replace(/\/+$/, ''), '1796000000000000031', 'sh-1', '50.00']);
      const closing = runCli(['--json', 'shift', 'close', '--carry-over'], { env: anna });
      await waitForLockWaiter(admin);
      await client.query('COMMIT');
      const closed = await closing;
      expect(closed.code, closed.stderr).toBe(0);
      const report = jsonLines(closed.stdout)[0]!;
      expect(report.carried).toEqual([{ transactionId: '1796000000000000031', state: 'unknown' }]);
      expect(await codeOf(client, intentSql, [rig.sandbox.baseUrl, '1796000000000000032', 'sh-2', '5.00'])).toBe(
        'APSHF',
      );
    } finally {
      await client.end();
    }
  });
});

/** Until a backend of the database waits for a lock (the close, on the shift an intent holds). */
async function waitForLockWaiter(admin: string): Promise<void> {
  const database = new URL(admin).pathname.slice(1);
  for (let look = 0; look < 200; look++) {
    const rows = await sql(
      admin,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
      [database],
    );
    if (rows[0]?.n === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the close never waited for the intent in flight');
}
