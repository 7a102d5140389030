import { describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { addOperators, asRole, sessionAs } from '../helpers/desk-roles.js';
import { foreignCodes, startForeignGateway } from '../helpers/foreign-gateway.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { migratedDatabase } from '../helpers/migrated-copy.js';
import { sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// The two-person rule (issue 28, step 2), through the bin: each person a role of their own on
// one database, each from a HOME of their own; what reaches the gateway is counted there.
const rig = teamLedgerRig();
const { terminal, payStatic, paymentsFor } = rig;

/** A desk: an administrator, an operator and two supervisors, roles named for this test. */
async function desk(tag: string) {
  const admin = await migratedDatabase(rig.server);
  const adminEnv = terminal(admin, 'root');
  const names = { anna: `anna_${tag}`, boris: `boris_${tag}`, carl: `carl_${tag}` };
  await addOperators(adminEnv, [
    { role: names.anna },
    { role: names.boris, supervisor: true },
    { role: names.carl, supervisor: true },
  ]);
  const threshold = { AGENTPAY_OPERATOR: 'whoever' };
  return {
    admin,
    names,
    anna: asRole(terminal('', 'whoever', threshold), admin, names.anna),
    boris: asRole(terminal('', 'whoever', threshold), admin, names.boris),
    carl: asRole(terminal('', 'whoever', threshold), admin, names.carl),
  };
}

const over = ['--approval-over', 'KZT=100'];

/** Asks for approval of a 150.00 KZT top-up of `account`: its TransactionID. Through the bin in the
 * first test; where the request is set-up, in-process (in-process-run.ts), its code and line checked the same. */
async function requested(env: Record<string, string>, account: string, byBin = false): Promise<string> {
  const args = ['--json', ...payStatic(account, [...over, '--request-approval'])];
  const result = byBin ? await runCli(args, { env }) : await runInProcess(args, env);
  expect([result.code, result.stderr]).toEqual([3, expect.stringContaining("awaits a supervisor's approval")]);
  const [line] = jsonLines(result.stdout);
  expect(line).toMatchObject({ state: 'awaiting-approval', account, amount: '150.00', needs: ['approval-over'] });
  return String(line!.transactionId);
}

// Each test runs a dozen or more commands, each a process of its own, beside another worker's.
describe('the two-person rule, enforced by the database', { timeout: 60_000 }, () => {
  it('refuses a payment over the threshold, records a request, pays it once a supervisor approves, never twice', async () => {
    const { anna, boris, names } = await desk('a');
    const refused = await runCli(payStatic('approve-1', over), { env: anna });
    expect([refused.code, refused.stderr]).toEqual([7, expect.stringContaining('--request-approval')]);
    const id = await requested(anna, 'approve-1', true);
    expect(paymentsFor('approve-1')).toHaveLength(0);

    const listed = jsonLines((await runCli(['--json', 'approvals'], { env: boris })).stdout);
    expect(listed).toEqual([expect.objectContaining({ transactionId: id, requestedBy: names.anna, decision: null })]);
    const table = await runCli(['approvals'], { env: boris });
    expect(table.stdout).toContain(id);
    expect(table.stdout).toContain('over the approval threshold');
    const early = await runCli(['pay', '--approved', id], { env: anna });
    expect([early.code, early.stderr]).toEqual([2, expect.stringContaining('still awaits')]);
    const byAnna = await runCli(['approve', id], { env: anna });
    expect([byAnna.code, byAnna.stderr]).toEqual([2, expect.stringContaining('is not a supervisor role')]);
    const approved = await runCli(['approve', id], { env: boris });
    expect([approved.code, approved.stderr]).toEqual([0, expect.stringContaining('is approved')]);

    const [first, second] = [
      await runCli(['--json', 'pay', '--approved', id], { env: anna }),
      await runCli(['--json', 'pay', '--approved', id], { env: anna }),
    ];
    expect(first.code, first.stderr).toBe(0);
    expect(jsonLines(first.stdout)[0]).toMatchObject({ transactionId: id, state: 'success', approvedBy: names.boris });
    expect([second.code, second.stderr]).toEqual([0, expect.stringContaining('was sent under this approval already')]);
    const payments = paymentsFor('approve-1');
    expect(payments.map((form) => [form.get('TransactionID'), form.get('Amount')])).toEqual([[id, '150.00']]);

    const history = jsonLines((await runCli(['--json', 'history'], { env: boris })).stdout);
    expect(history).toEqual([
      expect.objectContaining({ transactionId: id, requestedBy: names.anna, approvedBy: names.boris }),
    ]);
    // The table and CSV say it too: an Approved-by column on a team ledger, RequestedBy and ApprovedBy last in CSV.
    const historyTable = (await runCli(['history'], { env: boris })).stdout;
    expect(historyTable).toContain('Approved by');
    expect(historyTable.split('\n').find((line) => line.includes(id))).toContain(names.boris);
    const historyCsv = (await runCli(['history', '--format', 'csv'], { env: boris })).stdout.trim().split('\r\n');
    expect(historyCsv[0]).toMatch(/,Message,RequestedBy,ApprovedBy$/);
    expect(historyCsv.find((line) => line.includes(id))).toMatch(new RegExp(`,${names.anna},${names.boris}$`));
    const report = await runCli(['report', '--since', '1h', '--by', 'approvedBy', '--format', 'json'], { env: boris });
    expect(jsonLines(report.stdout)).toContainEqual(expect.objectContaining({ approvedBy: names.boris, count: 1 }));
    const receipt = await runCli(['receipt', id], { env: boris });
    expect(receipt.stdout).toMatch(new RegExp(`Approved by\\s+${names.boris}`));
  });

  it('lets no one approve their own request, a supervisor included; another supervisor can', async () => {
    const { boris, carl, names } = await desk('b');
    const id = await requested(boris, 'approve-own');
    const own = await runCli(['approve', id], { env: { ...boris, AGENTPAY_OPERATOR: names.carl } });
    expect([own.code, own.stderr]).toEqual([2, expect.stringContaining(`${names.boris} asked for this payment`)]);
    expect((await runCli(['approve', id], { env: carl })).code).toBe(0);
    const again = await runCli(['decline', id], { env: carl });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('was decided already')]);
  });

  it('sends nothing for a declined request or an expired one (by the database clock)', async () => {
    const { admin, anna, boris } = await desk('c');
    const declined = await requested(anna, 'declined-1');
    const decision = await runCli(['--json', 'decline', declined, '--reason', 'wrong account'], { env: boris });
    expect(jsonLines(decision.stdout)[0]).toMatchObject({ decision: 'declined', reason: 'wrong account' });
    const payDeclined = await runCli(['pay', '--approved', declined], { env: anna });
    expect([payDeclined.code, payDeclined.stderr]).toEqual([2, expect.stringContaining('was declined')]);

    const expiring = await requested(anna, 'expired-1');
    // The database's clock moves on: the request is older than its time to live.
    await sql(
      admin,
      "UPDATE agentpay_approvals SET requested_at = requested_at - interval '2 hours', expires_at = now() - interval '1 second' WHERE transaction_id = $1",
      [expiring],
    );
    expect(jsonLines((await runCli(['--json', 'approvals'], { env: boris })).stdout)).toEqual([]);
    const late = await runCli(['approve', expiring], { env: boris });
    expect([late.code, late.stderr]).toEqual([2, expect.stringContaining('has expired')]);

    const approvedThenExpired = await requested(anna, 'expired-2');
    expect((await runInProcess(['approve', approvedThenExpired], boris)).code).toBe(0);
    await sql(
      admin,
      "UPDATE agentpay_approvals SET expires_at = now() - interval '1 second' WHERE transaction_id = $1",
      [approvedThenExpired],
    );
    const payLate = await runCli(['pay', '--approved', approvedThenExpired], { env: anna });
    expect([payLate.code, payLate.stderr]).toEqual([2, expect.stringContaining('has expired')]);
    expect([...paymentsFor('declined-1'), ...paymentsFor('expired-1'), ...paymentsFor('expired-2')]).toEqual([]);
  });

  it('asks for approval of a duplicate top-up, and explains on the journal file that it cannot', async () => {
    const { anna, boris } = await desk('d');
    expect((await runInProcess(payStatic('dup-1'), anna)).code).toBe(0);
    const result = await runCli(['--json', ...payStatic('dup-1', ['--request-approval'])], { env: anna });
    expect(result.code, result.stderr).toBe(3);
    const [line] = jsonLines(result.stdout);
    expect(line).toMatchObject({ needs: ['duplicate'] });
    expect((await runInProcess(['approve', String(line!.transactionId)], boris)).code).toBe(0);
    expect((await runCli(['pay', '--approved', String(line!.transactionId)], { env: anna })).code).toBe(0);
    expect(paymentsFor('dup-1')).toHaveLength(2);

    const { AGENTPAY_LEDGER: _ledger, ...fileEnv } = terminal('', 'ann');
    const onFile = await runCli(payStatic('file-1', [...over, '--request-approval']), { env: fileEnv });
    expect([onFile.code, onFile.stderr]).toEqual([2, expect.stringContaining('needs the team ledger on PostgreSQL')]);
    const overOnFile = await runCli(payStatic('file-1', over), { env: fileEnv });
    expect([overOnFile.code, overOnFile.stderr]).toEqual([7, expect.stringContaining('needs a second person')]);
    expect(paymentsFor('file-1')).toEqual([]);
    const mixed = await runCli(['pay', '--approved', '1234', '--amount', '1.00'], { env: anna });
    expect([mixed.code, mixed.stderr]).toEqual([2, expect.stringContaining('--amount cannot change it')]);
  });

  it('refuses a requester who goes round the client with plain SQL, on every table and function', async () => {
    const { admin, boris, carl, names } = await desk('e');
    const id = await requested(boris, 'bypass-1');
    const client = await sessionAs(admin, names.boris);
    const outcome = (statement: string, values: unknown[] = []) =>
      client.query(statement, values).then(
        () => 'done',
        (error: { code?: string }) => error.code,
      );
    const attempts: Record<string, [string, unknown[]?]> = {
      'UPDATE the request': ["UPDATE agentpay_approvals SET decision = 'approved', decided_by = $1", [names.carl]],
      'INSERT an approved request': [
        `INSERT INTO agentpay_approvals (gateway, agent_id, transaction_id, service, account, amount, currency, needs,
           requested_by, requested_at, expires_at, decision, decided_by)
         SELECT gateway, agent_id, '99' || transaction_id, service, account, amount, currency, needs, requested_by,
           now(), now() + interval '1 hour', 'approved', $1 FROM agentpay_approvals`,
        [names.carl],
      ],
      'DELETE the request': ['DELETE FROM agentpay_approvals'],
      'decide its own request': [
        "SELECT d.* FROM agentpay_approvals a, LATERAL agentpay_decide_approval(a.gateway, a.agent_id, $1, 'approved', null) d",
        [id],
      ],
      'SET ROLE to another supervisor': [`SET ROLE ${names.carl}`],
      'use the approval unapproved': [
        `SELECT u.* FROM agentpay_approvals a,
           LATERAL agentpay_use_approval(a.gateway, a.agent_id, a.transaction_id, gen_random_uuid(), $1) u`,
        ['h'],
      ],
      'ALTER the function': ['ALTER FUNCTION agentpay_is_supervisor(name) RENAME TO gone'],
      'DROP the check': ['ALTER TABLE agentpay_approvals DROP CONSTRAINT agentpay_approvals_second_person'],
    };
    const outcomes: Record<string, string | undefined> = {};
    try {
      for (const [name, [statement, values]] of Object.entries(attempts))
        outcomes[name] = await outcome(statement, values);
      // The request's purchase written as an intent by hand, unapproved: its TransactionID is the request's.
      outcomes['write the requested intent'] = await outcome(
        `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, at, operator, host)
         SELECT gateway, agent_id, transaction_id, service, account, amount, currency, now(), 'x', 'h' FROM agentpay_approvals`,
      );
      // An attempt that claims an approval no supervisor gave, on an intent of its own.
      await client.query(
        `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, at, operator, host)
         SELECT gateway, agent_id, '1796000000000000099', service, account, '1.00', currency, now(), 'x', 'h' FROM agentpay_approvals`,
      );
      outcomes['forge the approval marks'] = await outcome(
        `INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
         SELECT gen_random_uuid(), seq, 'attempt', now(), 'x', 'h', ARRAY[$1, $2] FROM agentpay_transactions`,
        [`requested-by:${names.boris}`, `approved-by:${names.carl}`],
      );
    } finally {
      await client.end();
    }
    expect(outcomes).toEqual({
      'UPDATE the request': '42501',
      'INSERT an approved request': '42501',
      'DELETE the request': '42501',
      'decide its own request': 'APOWN',
      'SET ROLE to another supervisor': '42501',
      'use the approval unapproved': 'APWAI',
      'ALTER the function': '42501',
      'DROP the check': '42501',
      'write the requested intent': 'APREQ',
      'forge the approval marks': 'APNON',
    });
    // Even the tables' owner cannot record a request approved by its own requester.
    const byOwner = await sql(admin, 'UPDATE agentpay_approvals SET decision = $1, decided_by = requested_by', [
      'approved',
    ]).then(
      () => 'done',
      (error: { code?: string }) => error.code,
    );
    expect(byOwner).toBe('23514');
    // The request came through whole: another supervisor still approves it (in-process; the bin's: 'b').
    expect((await runInProcess(['approve', id], carl)).code).toBe(0);
    expect(paymentsFor('bypass-1')).toEqual([]);
  });

  it('sends one Payment when the same approval is used twice at the same moment', async () => {
    const { anna, boris } = await desk('f');
    const id = await requested(anna, 'twice-1');
    expect((await runInProcess(['approve', id], boris)).code).toBe(0);
    const results = await Promise.all([1, 2].map(() => runCli(['pay', '--approved', id], { env: anna })));
    // One pays; the other finds it sent: paid (0), or still without an answer when it looked (3).
    expect(results.map((result) => result.code).sort()).toEqual([0, expect.toBeOneOf([0, 3])]);
    expect(results.filter((result) => result.stderr.includes('was sent under this approval already'))).toHaveLength(1);
    expect(paymentsFor('twice-1').map((form) => form.get('TransactionID'))).toEqual([id]);
  });

  it('on a gateway that leaves the approved payment in progress: the repeat sends nothing, reconcile settles it', async () => {
    const { admin, names } = await desk('g');
    const gateway = await startForeignGateway('in-progress');
    try {
      const env = (role: string) =>
        asRole(
          isolatedEnv({
            AGENTPAY_BASE_URL: gateway.baseUrl,
            AGENTPAY_AGENT_ID: '77',
            AGENTPAY_PASSWORD: 'pw',
            AGENTPAY_PENDING_CODES: String(foreignCodes.inProgress),
            AGENTPAY_SETTLE_ATTEMPTS: '1',
            AGENTPAY_SETTLE_DELAY: '10',
          }),
          admin,
          role,
        );
      const purchase = ['pay', '--service', '5', '--account', 'foreign-9', '--amount', '500.00', '--txn-id', '990001'];
      const asked = await runInProcess([...purchase, ...over, '--request-approval'], env(names.anna));
      expect(asked.code, asked.stderr).toBe(3);
      expect((await runInProcess(['approve', '990001'], env(names.boris))).code).toBe(0);
      const first = await runCli(['pay', '--approved', '990001'], { env: env(names.anna) });
      const second = await runCli(['pay', '--approved', '990001'], { env: env(names.anna) });
      expect([first.code, second.code]).toEqual([3, 3]);
      expect(second.stderr).toContain('was sent under this approval already');
      const payments = gateway.received.filter((form) => form.get('RequestType') === 'Payment');
      expect(payments.map((form) => [form.get('TransactionID'), form.get('Amount')])).toEqual([['990001', '500.00']]);
      gateway.complete('990001');
      const reconciled = await runCli(['--json', 'reconcile'], { env: env(names.boris) });
      expect(jsonLines(reconciled.stdout).map((line) => [line.transactionId, line.state])).toEqual([
        ['990001', 'success'],
      ]);
    } finally {
      await gateway.close();
    }
  });
});
