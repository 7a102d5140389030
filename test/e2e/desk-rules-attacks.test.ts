import { afterEach, describe, expect, it } from 'vitest';
import {
  approvedRequest,
  attackedDesk,
  closeClients,
  codeOf,
  forgedAttempt,
  gateway,
  intent,
  nextTxn,
  seqOf,
  useSql,
} from '../helpers/desk-attacks.js';
import { sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Issue 38: the desk's rules (desk-rules-schema.ts) attacked as an operator role with psql or a
// modified client would, on a real PostgreSQL. Each test asserts the database refuses the attack;
// the attacks on approvals' clocks, spellings and shift races are in desk-rules-attacks-races.test.ts.
const rig = teamLedgerRig();
afterEach(closeClients);
describe("attacks on the ledger's threshold, as an operator with psql", { timeout: 90_000 }, () => {
  const amounts = ['150.000', ' 150', '150 ', '1.5e2', 'NaN', 'Infinity', '+150', '-150', '150,00', '١٥٠', '150\n'];
  const huge = ['9'.repeat(140_000), `100.${'0'.repeat(17_000)}1`, `${'0'.repeat(100_000)}150`];
  it('refuses every spelling of an amount over it, and every currency spelled otherwise', async () => {
    const { anna } = await attackedDesk(rig, 'amt');
    for (const amount of amounts) expect([amount, await intent(anna, nextTxn(), amount)]).toEqual([amount, 'APTHR']);
    // Digits past numeric's range are refused by the cast (22003) before any comparison.
    for (const amount of huge) expect(['APTHR', '22003']).toContain(await intent(anna, nextTxn(), amount));
    for (const currency of ['kzt', ' KZT', 'KZT ', 'КZT', 'KZT\n', 'KZ T', 'KZTKZT'])
      expect([currency, await intent(anna, nextTxn(), '150.00', currency)]).toEqual([currency, 'APCUR']);
  });

  it('cannot switch the checks off, rewrite them, or lift the grants', async () => {
    const { anna, names } = await attackedDesk(rig, 'off');
    const statements = [
      'SET session_replication_role = replica',
      "SELECT set_config('session_replication_role', 'replica', false)",
      'SET SESSION AUTHORIZATION agentpay',
      'SET ROLE agentpay_supervisor',
      `GRANT agentpay_supervisor TO ${names.anna}`,
      `ALTER ROLE ${names.anna} SUPERUSER`,
      `ALTER ROLE ${names.anna} SET session_replication_role = replica`,
      'ALTER TABLE agentpay_transactions DISABLE TRIGGER agentpay_transactions_guarded',
      'DROP TRIGGER agentpay_transactions_guarded ON agentpay_transactions',
      'ALTER TABLE agentpay_transactions ALTER COLUMN shift_seq SET DEFAULT 1',
      'CREATE RULE hide AS ON INSERT TO agentpay_open DO INSTEAD NOTHING',
      `CREATE OR REPLACE FUNCTION agentpay_guard_intent() RETURNS trigger LANGUAGE plpgsql
        AS $$BEGIN RETURN NEW; END $$`,
      'ALTER DEFAULT PRIVILEGES FOR ROLE agentpay GRANT ALL ON TABLES TO agentpay_operator',
      'CREATE SCHEMA evil',
      "CREATE FUNCTION public.unnest(text[]) RETURNS SETOF text LANGUAGE sql AS 'SELECT NULL::text WHERE false'",
      'CREATE EVENT TRIGGER evil ON ddl_command_start EXECUTE FUNCTION pg_catalog.now()',
      "COPY agentpay_approval_thresholds FROM '/dev/null'",
      "COPY agentpay_transactions FROM PROGRAM 'true'",
      "SELECT setval('agentpay_transactions_seq_seq', 1)",
      'ALTER SEQUENCE agentpay_records_seq_seq RESTART WITH 1',
      'TRUNCATE agentpay_open CASCADE',
      'TRUNCATE agentpay_transactions, agentpay_records, agentpay_open CASCADE',
      'MERGE INTO agentpay_open o USING (SELECT 1) s ON true WHEN MATCHED THEN DELETE',
      'WITH gone AS (DELETE FROM agentpay_open RETURNING *) SELECT count(*) FROM gone',
      'BEGIN; LOCK TABLE agentpay_transactions IN ACCESS EXCLUSIVE MODE; COMMIT',
      'BEGIN; LOCK TABLE agentpay_approvals IN EXCLUSIVE MODE; COMMIT',
      'BEGIN; LOCK TABLE agentpay_shifts IN EXCLUSIVE MODE; COMMIT',
      'SELECT * FROM agentpay_shifts FOR UPDATE',
      'SELECT * FROM agentpay_approvals FOR SHARE',
      'UPDATE agentpay_desk_policy SET shifts_required = false',
      "INSERT INTO agentpay_approval_thresholds (currency, over) VALUES ('USD', 1e12)",
      "UPDATE agentpay_approvals SET decision = 'approved', decided_by = 'someone'",
      "INSERT INTO agentpay_shifts (operator, opened_at) VALUES ('x', now())",
      'UPDATE agentpay_shifts SET closed_at = now()',
      "INSERT INTO agentpay_z_reports VALUES (1, 1, '{}', 'x', 'y', now())",
    ];
    const refused = [];
    for (const statement of statements) refused.push([statement, await codeOf(anna, statement)]);
    expect(refused.filter(([, code]) => code !== '42501')).toEqual([]);
  });

  it('reads no temporary table, function or policy of the operator in its checks', async () => {
    const { anna, boris, names } = await attackedDesk(rig, 'tmp');
    const approvedTxn = nextTxn();
    await approvedRequest({ anna, boris }, approvedTxn);
    for (const statement of [
      "CREATE TEMP TABLE agentpay_approval_thresholds AS SELECT 'KZT'::text AS currency, 1e12::numeric AS over",
      'CREATE TEMP TABLE agentpay_desk_policy AS SELECT true AS only_row, false AS shifts_required',
      `CREATE TEMP TABLE agentpay_approvals AS SELECT * FROM public.agentpay_approvals`,
      "CREATE FUNCTION pg_temp.unnest(text[]) RETURNS SETOF text LANGUAGE sql AS 'SELECT NULL::text WHERE false'",
      'SET search_path = pg_temp, public',
    ])
      await anna.query(statement);
    expect(await intent(anna, nextTxn(), '150.00')).toBe('APTHR');
    expect(await intent(anna, approvedTxn, '999.00')).toBe('APREQ');
    const own = nextTxn();
    expect(await intent(anna, own)).toBe('done');
    expect(await forgedAttempt(anna, await seqOf(anna, own), names)).toBe('APNON');
  });

  it("runs no operator's function as the ledger's owner where public is open (PostgreSQL 14's default)", async () => {
    // A database made by PostgreSQL 14 or earlier (or pg_upgraded from one) lets every role create in public.
    const open = (admin: string) => sql(admin, 'GRANT CREATE ON SCHEMA public TO PUBLIC');
    const { admin, anna, names } = await attackedDesk(rig, 'pub', undefined, open);
    const hijack = `CREATE FUNCTION public.unnest(marks text[]) RETURNS SETOF text LANGUAGE plpgsql AS $$
      BEGIN
        IF current_user <> session_user THEN EXECUTE format('ALTER ROLE %I SUPERUSER', session_user); END IF;
        RETURN;
      END $$`;
    await codeOf(anna, hijack);
    const own = nextTxn();
    expect(await intent(anna, own)).toBe('done');
    const forged = await forgedAttempt(anna, await seqOf(anna, own), names);
    const [role] = await sql(admin, 'SELECT rolsuper FROM pg_roles WHERE rolname = $1', [names.anna]);
    expect({ forged, superuser: role?.rolsuper }).toEqual({ forged: 'APNON', superuser: false });
  });
});

describe('attacks on approvals and the open set, as an operator with psql', { timeout: 90_000 }, () => {
  it('takes an approval once, whoever races for it', async () => {
    const { anna, boris, carl } = await attackedDesk(rig, 'race');
    const txn = nextTxn();
    await approvedRequest({ anna, boris }, txn);
    await anna.query('BEGIN');
    await anna.query(useSql, [gateway, txn]);
    const second = codeOf(carl, useSql, [gateway, txn]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await anna.query('COMMIT');
    expect(await second).toBe('APUSE');
    await carl.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    expect(await codeOf(carl, useSql, [gateway, txn])).toBe('APUSE');
    expect(await intent(carl, txn, '150.00')).toBe('23505');
  });

  it('accepts no approval marks but on the attempt the approval wrote, nor a used record id', async () => {
    const { anna, boris, names } = await attackedDesk(rig, 'marks');
    const txn = nextTxn();
    await approvedRequest({ anna, boris }, txn);
    const [used] = (await anna.query(useSql, [gateway, txn])).rows;
    expect(used).toMatchObject({ decided_by: names.boris });
    expect(await forgedAttempt(anna, await seqOf(anna, txn), names)).toBe('APNON');
    const other = nextTxn();
    await approvedRequest({ anna, boris }, other);
    const recordId = (await anna.query('SELECT record_id FROM agentpay_records LIMIT 1')).rows[0]?.record_id;
    const reuse = `SELECT * FROM agentpay_use_approval($1, '1001', $2, $3, 'h')`;
    expect(await codeOf(anna, reuse, [gateway, other, recordId])).toBe('23505');
    const [left] = (await anna.query('SELECT used_at FROM agentpay_approvals WHERE transaction_id = $1', [other])).rows;
    expect(left).toEqual({ used_at: null });
  });

  it('lets no one decide a request of their own, through a group, or for another gateway', async () => {
    const { anna, boris, carl } = await attackedDesk(rig, 'own');
    const txn = nextTxn();
    await boris.query(
      `SELECT agentpay_request_approval($1, '1001', $2, '201', 'acct', '150.00', 'KZT', NULL, NULL, ARRAY['x'], 600)`,
      [gateway, txn],
    );
    const decide = (gw: string) => `SELECT * FROM agentpay_decide_approval('${gw}', '1001', $1, 'approved', 'ok')`;
    await boris.query('SET ROLE agentpay_supervisor');
    expect(await codeOf(boris, decide(gateway), [txn])).toBe('APOWN');
    expect(await codeOf(anna, decide(gateway), [txn])).toBe('APSUP');
    expect(await codeOf(carl, decide(`${gateway}/`), [txn])).toBe('APNON');
    expect(await codeOf(carl, decide(gateway).replace("'approved'", "'APPROVED'"), [txn])).toBe('APNON');
  });

  it('gives no request to a recorded TransactionID, and no request a life over a day', async () => {
    const { anna } = await attackedDesk(rig, 'ttl');
    const recorded = nextTxn();
    expect(await intent(anna, recorded)).toBe('done');
    const request = (txn: string, ttl: unknown) =>
      anna.query(
        `SELECT extract(epoch FROM agentpay_request_approval($1, '1001', $2, '201', 'acct', '150.00', 'KZT', NULL, NULL,
          ARRAY['x'], $3) - now())::int AS seconds`,
        [gateway, txn, ttl],
      );
    expect(
      await codeOf(
        anna,
        `SELECT agentpay_request_approval($1, '1001', $2, '201', 'a', '1', 'KZT', NULL, NULL, ARRAY['x'], 60)`,
        [gateway, recorded],
      ),
    ).toBe('APTXN');
    expect((await request(nextTxn(), 2_147_483_647)).rows).toEqual([{ seconds: 86_400 }]);
    expect((await request(nextTxn(), null)).rows).toEqual([{ seconds: 60 }]);
    expect((await request(nextTxn(), -5)).rows).toEqual([{ seconds: 60 }]);
  });

  it('lets no operator pick the sequence numbers others will be given', async () => {
    const { anna, boris } = await attackedDesk(rig, 'seq');
    // The next number the sequence gives, taken ahead by an intent of anna's: boris's next intent collides.
    const next = (await anna.query("SELECT nextval('agentpay_transactions_seq_seq') + 1 AS seq")).rows[0]?.seq;
    const explicit = await codeOf(
      anna,
      `INSERT INTO agentpay_transactions (seq, gateway, agent_id, transaction_id, service, account, amount,
         currency, at, operator, host)
       VALUES ($1, $2, '1001', $3, '201', 'acct', '5.00', 'KZT', now(), 'x', 'h')`,
      [next, gateway, nextTxn()],
    );
    const borisNext = await intent(boris, nextTxn());
    expect({ explicitRefused: explicit !== 'done', borisNext }).toEqual({ explicitRefused: true, borisNext: 'done' });
  });
});
