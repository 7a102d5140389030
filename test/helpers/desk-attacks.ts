import type pg from 'pg';
import { addOperator, sessionAs, setPolicy } from './desk-roles.js';
import { freshDatabase } from './postgres.js';
import type { teamLedgerRig } from './team-ledger.js';

/**
 * What the attacks on the desk's rules share (test/e2e/desk-rules-attacks*.test.ts): a ledger
 * with a policy, its people logged in as their roles with pg (as psql or a modified client
 * would be), and the statements such a client would send.
 */

export const gateway = 'http://127.0.0.1:9';
const opened: pg.Client[] = [];
/** Ends every client the last test opened (the file's afterEach). */
export async function closeClients(): Promise<void> {
  await Promise.all(opened.splice(0).map((client) => client.end().catch(() => undefined)));
}

/** A ledger with an operator (anna) and two supervisors (boris, carl), the policy as given; `beforeLedger` first. */
export async function attackedDesk(
  rig: ReturnType<typeof teamLedgerRig>,
  tag: string,
  policy = ['--approval-threshold', 'KZT=100'],
  beforeLedger?: (admin: string) => Promise<unknown>,
) {
  const admin = await freshDatabase(rig.server);
  await beforeLedger?.(admin);
  const adminEnv = rig.terminal(admin, 'root');
  const names = { anna: `anna_${tag}`, boris: `boris_${tag}`, carl: `carl_${tag}` };
  await addOperator(adminEnv, names.anna);
  await addOperator(adminEnv, names.boris, true);
  await addOperator(adminEnv, names.carl, true);
  await setPolicy(adminEnv, policy);
  const connect = async (role: string) => {
    const client = await sessionAs(admin, role);
    opened.push(client);
    return client;
  };
  const [anna, boris, carl] = [await connect(names.anna), await connect(names.boris), await connect(names.carl)];
  return { admin, names, anna, boris, carl, connect };
}

/** 'done', or the SQLSTATE the server refused the statement with (its transaction, if any, rolled back). */
export async function codeOf(client: pg.Client, statement: string, values: unknown[] = []): Promise<string> {
  try {
    await client.query(statement, values);
    return 'done';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    return String((error as { code?: string }).code);
  }
}

let transactions = 0;
/** A TransactionID no other test uses. */
export const nextTxn = () => String(1797000000000000000n + BigInt(process.pid) * 1000n + BigInt(++transactions));

export const intentSql = `INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account,
    amount, currency, at, operator, host)
  VALUES ($1, $2, $3, '201', 'acct', $4, $5, now(), 'x', 'h')`;

/** An intent as a modified client writes it: the key and purchase as given. */
export const intent = (
  client: pg.Client,
  txn: string,
  amount = '50.00',
  currency = 'KZT',
  gw = gateway,
  agent = '1001',
) => codeOf(client, intentSql, [gw, agent, txn, amount, currency]);

/** Anna's request for 150.00 KZT under `txn`, approved by boris. */
export async function approvedRequest(desk: { anna: pg.Client; boris: pg.Client }, txn: string): Promise<void> {
  await desk.anna.query(
    `SELECT agentpay_request_approval($1, '1001', $2, '201', 'acct', '150.00', 'KZT', NULL, NULL,
      ARRAY['approval-over'], 600)`,
    [gateway, txn],
  );
  await desk.boris.query(`SELECT * FROM agentpay_decide_approval($1, '1001', $2, 'approved', 'ok')`, [gateway, txn]);
}

export const useSql = `SELECT * FROM agentpay_use_approval($1, '1001', $2, gen_random_uuid(), 'h')`;

/** An attempt with the approval marks on transaction `seq` (a forged approval). */
export const forgedAttempt = (client: pg.Client, seq: string, names: { anna: string; boris: string }) =>
  codeOf(
    client,
    `INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
     VALUES (gen_random_uuid(), $1, 'attempt', now(), 'x', 'h', ARRAY[$2, $3])`,
    [seq, `requested-by:${names.anna}`, `approved-by:${names.boris}`],
  );

export const seqOf = async (client: pg.Client, txn: string) =>
  String((await client.query('SELECT seq FROM agentpay_transactions WHERE transaction_id = $1', [txn])).rows[0]?.seq);
