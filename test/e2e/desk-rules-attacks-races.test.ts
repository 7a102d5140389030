import { createHash } from 'node:crypto';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  approvedRequest,
  attackedDesk,
  closeClients,
  codeOf,
  gateway,
  intent,
  intentSql,
  nextTxn,
  useSql,
} from '../helpers/desk-attacks.js';
import { sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Issue 38: attacks on the desk's rules through time and races (clocks held in a transaction,
// isolation levels, two sessions at once) and through other spellings of a request's key.
const rig = teamLedgerRig();
afterEach(closeClients);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request's life cut to `ms` from now, as the administrator could (the shortest ttl is a minute). */
const expiresIn = (admin: string, txn: string, ms: number) =>
  sql(
    admin,
    `UPDATE agentpay_approvals SET expires_at = clock_timestamp() + $2 * interval '1 ms' WHERE transaction_id = $1`,
    [txn, ms],
  );

/** Z-report content the close accepts for a shift counted as `count` payments: the first report of the ledger. */
function firstReport(count: number): [string, string] {
  const content = JSON.stringify({
    number: 1,
    previousHash: '0'.repeat(64),
    totals: count === 0 ? [] : [{ count, currency: 'KZT', state: 'unknown', sum: '0' }],
  });
  return [content, createHash('sha256').update(content).digest('hex')];
}

const openShift = async (client: pg.Client) =>
  String((await client.query('SELECT seq FROM agentpay_open_shift()')).rows[0]?.seq);

describe("attacks on the approvals' clock", { timeout: 90_000 }, () => {
  it('takes no approval after it expired, from a transaction begun before', async () => {
    const { admin, anna, boris } = await attackedDesk(rig, 'exp');
    const txn = nextTxn();
    await approvedRequest({ anna, boris }, txn);
    await anna.query('BEGIN');
    await anna.query('SELECT now()');
    await expiresIn(admin, txn, 500);
    await pause(1500);
    const used = await codeOf(anna, useSql, [gateway, txn]);
    await anna.query('COMMIT').catch(() => undefined);
    expect(used).toBe('APEXP');
  });

  it('lets no supervisor decide a request after it expired, from a transaction begun before', async () => {
    const { admin, anna, boris } = await attackedDesk(rig, 'dexp');
    const txn = nextTxn();
    await anna.query(
      `SELECT agentpay_request_approval($1, '1001', $2, '201', 'acct', '150.00', 'KZT', NULL, NULL, ARRAY['x'], 600)`,
      [gateway, txn],
    );
    await boris.query('BEGIN');
    await boris.query('SELECT now()');
    await expiresIn(admin, txn, 500);
    await pause(1500);
    const decided = await codeOf(boris, `SELECT * FROM agentpay_decide_approval($1, '1001', $2, 'approved', 'ok')`, [
      gateway,
      txn,
    ]);
    await boris.query('COMMIT').catch(() => undefined);
    expect(decided).toBe('APEXP');
  });
});

describe("attacks on a request's TransactionID", { timeout: 90_000 }, () => {
  // The gateway reads the same payment in each of these (spec 3: ids are Longs; one gateway, one name).
  const same = (txn: string) => txn;
  const spellings: [string, string, string, (txn: string) => string][] = [
    ['the gateway in capitals', 'HTTP://127.0.0.1:9', '1001', same],
    ['the gateway with a slash', `${gateway}/`, '1001', same],
    ['the gateway as localhost', 'http://localhost:9', '1001', same],
    ['the agent with a leading zero', gateway, '01001', same],
    ['the TransactionID with a leading zero', gateway, '1001', (txn) => `0${txn}`],
    ['the TransactionID with a plus', gateway, '1001', (txn) => `+${txn}`],
  ];
  it.each(spellings)('keeps it for the request under %s', async (what, spelled, agent, txnOf) => {
    const { anna } = await attackedDesk(rig, `sp${spellings.findIndex(([each]) => each === what)}`);
    const txn = nextTxn();
    await anna.query(
      `SELECT agentpay_request_approval($1, '1001', $2, '201', 'acct', '150.00', 'KZT', NULL, NULL, ARRAY['x'], 600)`,
      [gateway, txn],
    );
    // APREQ today's trigger would say; a CHECK of the one spelling would refuse it as well.
    expect(await intent(anna, txnOf(txn), '50.00', 'KZT', spelled, agent)).not.toBe('done');
  });
});

describe('attacks on shifts', { timeout: 90_000 }, () => {
  it("writes no intent into another role's shift, and closes no one else's", async () => {
    const { anna, boris } = await attackedDesk(rig, 'osh', ['--shifts', 'required']);
    const shift = await openShift(boris);
    // The group's rights are anna's already; SET ROLE changes current_user, never session_user.
    await anna.query('SET ROLE agentpay_operator');
    const into = await codeOf(
      anna,
      `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, at,
         operator, host, shift_seq)
       VALUES ($1, '1001', $2, '201', 'acct', '5.00', 'KZT', now(), 'x', 'h', $3)`,
      [gateway, nextTxn(), shift],
    );
    const [content, hash] = firstReport(0);
    const closed = await codeOf(anna, 'SELECT * FROM agentpay_close_shift($1, $2, $3)', [shift, content, hash]);
    // shift_seq is no column an operator may write at all (42501), the trigger's APSHF behind it.
    expect({ into, closed }).toEqual({ into: '42501', closed: 'APSHN' });
  });

  it('counts in its Z-report a payment a repeatable-read close did not see', async () => {
    const { admin, anna, connect, names } = await attackedDesk(rig, 'rr', ['--shifts', 'required']);
    const shift = await openShift(anna);
    const closer = await connect(names.anna);
    await closer.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await closer.query('SELECT count(*) FROM agentpay_transactions');
    expect(await codeOf(anna, intentSql, [gateway, '1001', nextTxn(), '5.00', 'KZT'])).toBe('done');
    const [content, hash] = firstReport(0);
    const closed = await codeOf(closer, 'SELECT number FROM agentpay_close_shift($1, $2, $3)', [shift, content, hash]);
    await closer.query('COMMIT').catch(() => undefined);
    const members = await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions WHERE shift_seq = $1', [
      shift,
    ]);
    expect({ closedAnyway: closed === 'done', members }).toEqual({ closedAnyway: false, members: [{ n: 1 }] });
  });

  it('counts in its Z-report a payment an intent under repeatable read adds', async () => {
    const { admin, anna, connect, names } = await attackedDesk(rig, 'rri', ['--shifts', 'required']);
    const shift = await openShift(anna);
    const writer = await connect(names.anna);
    await writer.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await writer.query('SELECT count(*) FROM agentpay_shifts');
    const [content, hash] = firstReport(0);
    expect(await codeOf(anna, 'SELECT number FROM agentpay_close_shift($1, $2, $3)', [shift, content, hash])).toBe(
      'done',
    );
    const written = await codeOf(writer, intentSql, [gateway, '1001', nextTxn(), '5.00', 'KZT']);
    await writer.query('COMMIT').catch(() => undefined);
    const members = await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_transactions WHERE shift_seq = $1', [
      shift,
    ]);
    expect({ written, members }).toEqual({ written: '40001', members: [{ n: 0 }] });
  });
});
