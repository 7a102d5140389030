import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/ledger/postgres/schema.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, addOperatorByBin, asRole, sessionAs } from '../helpers/desk-roles.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Operators as database roles (issue 28, step 1): made by an administrator through the bin,
// each working from its own HOME; who made a record is the role the database saw, whatever
// the profile says, and a role can do nothing to the ledger beyond an operator's work.
const rig = teamLedgerRig();
const { terminal, payStatic } = rig;

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'done',
    (error: { code?: string }) => error.code,
  );

describe('operators are database roles', { timeout: 60_000 }, () => {
  it('records the role the database saw, not the name the profile claims', async () => {
    const admin = await freshDatabase(rig.server);
    const adminEnv = terminal(admin, 'root');
    await addOperatorByBin(adminEnv, 'anna_1');
    await addOperatorByBin(adminEnv, 'boris_1', true);
    const listed = await runCli(['--json', 'ledger', 'operators'], { env: adminEnv });
    expect(jsonLines(listed.stdout).filter((line) => String(line.role).endsWith('_1'))).toEqual([
      { role: 'anna_1', supervisor: false, canLogin: true },
      { role: 'boris_1', supervisor: true, canLogin: true },
    ]);
    const table = await runCli(['ledger', 'operators'], { env: adminEnv });
    expect(table.stdout).toMatch(/anna_1\s.*no.*yes/);

    // Anna's profile claims to be boris: the ledger records the role she logged in as.
    const anna = asRole(terminal('', 'boris_1'), admin, 'anna_1');
    const paid = await runCli(payStatic('role-1'), { env: anna });
    expect(paid.code, paid.stderr).toBe(0);
    const history = await runCli(['--json', 'history'], { env: anna });
    expect(jsonLines(history.stdout).map((line) => [line.account, line.operator])).toEqual([['role-1', 'anna_1']]);
    expect(await sql(admin, 'SELECT DISTINCT operator FROM agentpay_records')).toEqual([{ operator: 'anna_1' }]);
    // The daily limit weighs the role's payments, whatever name the next run claims.
    const renamed = { ...anna, AGENTPAY_OPERATOR: 'someone_else' };
    const overDay = await runCli(payStatic('role-2', ['--daily-limit', 'KZT=200']), { env: renamed });
    expect([overDay.code, overDay.stderr]).toEqual([7, expect.stringContaining("anna_1's payments today")]);
    // The administrator's own rows keep the profile's name: a ledger without roles works as before.
    expect((await runCli(payStatic('admin-1'), { env: adminEnv })).code).toBe(0);
    expect(await sql(admin, "SELECT operator FROM agentpay_transactions WHERE account = 'admin-1'")).toEqual([
      { operator: 'root' },
    ]);
  });

  it('gives a role only what an operator needs: the database refuses the rest', async () => {
    const admin = await freshDatabase(rig.server);
    const adminEnv = terminal(admin, 'root');
    // Set-up in-process: the role and a payment of its own to attack (the first test adds and pays through the bin).
    await addOperator(adminEnv, 'anna_2');
    expect((await runInProcess(payStatic('rights-1'), asRole(terminal('', 'anna_2'), admin, 'anna_2'))).code).toBe(0);
    const client = await sessionAs(admin, 'anna_2');
    try {
      const attempts = {
        'UPDATE records': "UPDATE agentpay_records SET operator = 'boris_2'",
        'DELETE transactions': 'DELETE FROM agentpay_transactions',
        'TRUNCATE records': 'TRUNCATE agentpay_records CASCADE',
        'DISABLE TRIGGER': 'ALTER TABLE agentpay_records DISABLE TRIGGER agentpay_records_recorded_by',
        'DROP FUNCTION': 'DROP FUNCTION agentpay_recorded_by() CASCADE',
        'CREATE ROLE': 'CREATE ROLE mallory LOGIN',
        'GRANT supervisor': 'GRANT agentpay_supervisor TO anna_2',
        'SET SESSION AUTHORIZATION': 'SET SESSION AUTHORIZATION agentpay',
      };
      const outcomes: Record<string, string | undefined> = {};
      for (const [name, statement] of Object.entries(attempts)) outcomes[name] = await refusal(client.query(statement));
      expect(outcomes).toEqual({
        'UPDATE records': '42501',
        'DELETE transactions': '42501',
        'TRUNCATE records': '42501',
        'DISABLE TRIGGER': '42501',
        'DROP FUNCTION': '42501',
        'CREATE ROLE': '42501',
        'GRANT supervisor': '42501',
        'SET SESSION AUTHORIZATION': '42501',
      });
      // An insert that names someone else is filed under the role that made it.
      await client.query(
        `INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host)
         SELECT gen_random_uuid(), seq, 'attempt', now(), 'boris', 'forged' FROM agentpay_transactions`,
      );
    } finally {
      await client.end();
    }
    expect(await sql(admin, "SELECT operator FROM agentpay_records WHERE host = 'forged'")).toEqual([
      { operator: 'anna_2' },
    ]);
  });

  it('is added and removed only by an administrator, and only as an operator role', async () => {
    const admin = await freshDatabase(rig.server);
    const adminEnv = terminal(admin, 'root');
    await addOperatorByBin(adminEnv, 'anna_3');
    const anna = asRole(terminal('', 'anna_3'), admin, 'anna_3');
    const byAnna = await runCli(['ledger', 'add-operator', 'eve_3', '--password-stdin'], {
      env: anna,
      input: 'long-password-x\n',
    });
    expect([byAnna.code, byAnna.stderr]).toEqual([
      2,
      expect.stringContaining('the database refused to add the operator'),
    ]);
    const again = await runCli(['ledger', 'add-operator', 'anna_3', '--password-stdin'], {
      env: adminEnv,
      input: 'long-password-y',
    });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('already has a role anna_3')]);
    const badName = await runCli(['ledger', 'add-operator', 'Anna;drop', '--password-stdin'], {
      env: adminEnv,
      input: 'long-password-z',
    });
    expect([badName.code, badName.stderr]).toEqual([2, expect.stringContaining('cannot be an operator role')]);
    const empty = await runCli(['ledger', 'add-operator', 'olga_3', '--password-stdin'], {
      env: adminEnv,
      input: '\n',
    });
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('is empty')]);
    const notOurs = await runCli(['ledger', 'remove-operator', 'agentpay'], { env: adminEnv });
    expect([notOurs.code, notOurs.stderr]).toEqual([2, expect.stringContaining('not an operator role')]);

    const removed = await runCli(['ledger', 'remove-operator', 'anna_3'], { env: adminEnv });
    expect([removed.code, removed.stderr]).toEqual([0, expect.stringContaining('operator role anna_3 removed')]);
    const left = jsonLines((await runCli(['--json', 'ledger', 'operators'], { env: adminEnv })).stdout);
    expect(left.map((line) => line.role)).not.toContain('anna_3');
    const gone = await runCli(payStatic('after-removal'), { env: anna });
    expect(gone.code).toBe(4);
    // The role's password was never sent: the server holds a SCRAM verifier.
    expect(
      await sql(rig.server.url(), "SELECT count(*)::int AS n FROM pg_authid WHERE rolpassword LIKE '%secret-pw%'"),
    ).toEqual([{ n: 0 }]);
  });

  it('upgrades a ledger made before roles, approvals and shifts, its payments kept', async () => {
    const admin = await freshDatabase(rig.server);
    const adminEnv = terminal(admin, 'root');
    expect((await runInProcess(payStatic('before-upgrade'), adminEnv)).code).toBe(0);
    // Back to schema version 2, as an agentpay before issue 28 left it, its payment in it.
    await sql(
      admin,
      `DROP TRIGGER agentpay_transactions_guarded ON agentpay_transactions;
       DROP TRIGGER agentpay_records_close_open ON agentpay_records;
       DROP TRIGGER agentpay_open_no_update ON agentpay_open;
       DROP TRIGGER agentpay_records_guarded ON agentpay_records;
       DROP FUNCTION agentpay_guard_intent(), agentpay_close_on_outcome(), agentpay_guard_attempt(),
         agentpay_session_shift();
       ALTER TABLE agentpay_transactions DROP COLUMN shift_seq;
       DROP TABLE agentpay_approval_thresholds, agentpay_desk_policy;
       ALTER TABLE agentpay_transactions DROP CONSTRAINT agentpay_transactions_one_spelling,
         DROP CONSTRAINT agentpay_transactions_id_digits;
       DROP TABLE agentpay_gateway_spellings, agentpay_z_reports, agentpay_shifts, agentpay_approvals CASCADE;
       DROP TRIGGER agentpay_transactions_recorded_by ON agentpay_transactions;
       DROP TRIGGER agentpay_records_recorded_by ON agentpay_records;
       DROP TRIGGER agentpay_records_approved ON agentpay_records;
       DROP FUNCTION agentpay_recorded_by(), agentpay_approved_attempt(), agentpay_is_operator(name),
         agentpay_is_supervisor(name), agentpay_request_approval(text, text, text, text, text, text, text, text, text, text[], integer),
         agentpay_use_approval(text, text, text, uuid, text);
       DROP TABLE agentpay_bulk_rows;
       DROP INDEX agentpay_transactions_by_account;
       DELETE FROM agentpay_schema_migrations WHERE version > 2`,
    );
    expect(await sql(admin, 'SELECT max(version) AS v FROM agentpay_schema_migrations')).toEqual([{ v: 2 }]);
    await addOperatorByBin(adminEnv, 'anna_4');
    expect(await sql(admin, 'SELECT max(version) AS v FROM agentpay_schema_migrations')).toEqual([
      { v: schemaVersion },
    ]);
    const anna = asRole(terminal('', 'anna_4'), admin, 'anna_4');
    expect((await runCli(payStatic('after-upgrade'), { env: anna })).code).toBe(0);
    const history = jsonLines((await runCli(['--json', 'history'], { env: anna })).stdout);
    expect(history.map((line) => [line.account, line.operator, line.state])).toEqual([
      ['before-upgrade', 'root', 'success'],
      ['after-upgrade', 'anna_4', 'success'],
    ]);
  });
});
