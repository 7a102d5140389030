import type { ReadStatements } from '../sql/reads.js';

/** The SQL of the team ledger, in one place (schema.ts makes the tables). Every write is one
 * statement, so it is whole or absent: an intent with its first attempt and its place among
 * the open transactions; an outcome with, when final, the end of that place. */

/** What the ledger reads of a record (recordsOf, and recentTransactions' aggregate of them). */
const recordFields = [
  'seq',
  'transaction_seq',
  'kind',
  'at',
  'source',
  'view',
  'answers_attempt',
  'operator',
  'host',
  'overrides',
] as const;
/** Read as text, as the driver gives bigint columns: in JSON they would be numbers, past 2^53 inexact. */
const bigints = new Set<string>(['seq', 'transaction_seq', 'answers_attempt']);
const transactionColumns =
  't.seq, t.gateway, t.agent_id, t.transaction_id, t.service, t.account, t.amount, t.currency, t.invoice_id, t.at, t.operator, t.host, t.voucher';

/** $1..$11 the intent and who made it, $12 the attempt's record id, $13 the voucher's name, $14
 * the guards lifted for this attempt. One row (the attempt's seq) when it is new, none when the
 * TransactionID is taken. */
export const insertIntent = `
WITH t AS (
  INSERT INTO agentpay_transactions (gateway, agent_id, transaction_id, service, account, amount, currency, invoice_id, at, operator, host, voucher)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13)
  ON CONFLICT ON CONSTRAINT agentpay_transactions_owner DO NOTHING
  RETURNING seq
), a AS (
  INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
  SELECT $12, seq, 'attempt', $9, $10, $11, $14::text[] FROM t
  RETURNING seq, transaction_seq
), o AS (
  INSERT INTO agentpay_open (transaction_seq) SELECT transaction_seq FROM a
)
SELECT seq AS attempt_seq FROM a`;

/** Transaction-level advisory locks on $1 (keys: claims.ts lockKeysOf), taken in one
 * order so two batches never wait on each other in a cycle; let go at COMMIT or ROLLBACK. */
export const lockPurchases = `
SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(key, 0) AS k FROM unnest($1::text[]) AS key ORDER BY 1) keys`;

/** The intent recorded for $1 gateway, $2 agent, $3 TransactionID. */
export const selectIntent = `SELECT ${transactionColumns} FROM agentpay_transactions t WHERE t.gateway = $1 AND t.agent_id = $2 AND t.transaction_id = $3`;

/** Another attempt at a recorded purchase (the safe retry): open again. $1 record id, $2
 * transaction seq, $3 at, $4 operator, $5 host, $6 the guards lifted for it. Gives the attempt's
 * seq, none when that record id was there already (an import repeated). */
export const insertAttempt = `
WITH a AS (
  INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
  VALUES ($1, $2, 'attempt', $3, $4, $5, $6::text[])
  ON CONFLICT (record_id) DO NOTHING
  RETURNING seq, transaction_seq
), o AS (
  INSERT INTO agentpay_open (transaction_seq) SELECT transaction_seq FROM a ON CONFLICT DO NOTHING
)
SELECT seq AS attempt_seq FROM a`;

/** Outcomes, as parallel arrays ($1 record ids … $10 hosts, $11 the attempts they answer),
 * appended in order; a record id already there is skipped (a fallback delivered twice). A final
 * one closes its transaction, by the database's trigger (desk-rules-schema.ts). */
export const insertOutcomes = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::text[], $11::bigint[])
    WITH ORDINALITY AS i (record_id, gateway, agent_id, transaction_id, at, source, state, view, operator, host, answers_attempt, n)
), r AS (
  INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, source, state, view, answers_attempt, operator, host)
  SELECT i.record_id, t.seq, 'outcome', i.at, i.source, i.state, i.view, i.answers_attempt, i.operator, i.host
  FROM input i JOIN agentpay_transactions t ON t.gateway = i.gateway AND t.agent_id = i.agent_id AND t.transaction_id = i.transaction_id
  ORDER BY i.n
  ON CONFLICT (record_id) DO NOTHING
  RETURNING transaction_seq
)
SELECT (SELECT count(*) FROM r) AS inserted`;

/** A transaction's latest attempt ($since: any attempt at or after it). */
const attemptedSince = `($SINCE::timestamptz IS NULL OR EXISTS (
  SELECT 1 FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt' AND a.at >= $SINCE::timestamptz))`;
const since = (placeholder: string) => attemptedSince.replaceAll('$SINCE', placeholder);

/** Open transactions by gateway and agent. $1 since. */
const openOwners = `
SELECT t.gateway, t.agent_id, count(*)::text AS count
FROM agentpay_open o JOIN agentpay_transactions t ON t.seq = o.transaction_seq
WHERE ${since('$1')}
GROUP BY t.gateway, t.agent_id ORDER BY t.gateway, t.agent_id`;

/** The next open transactions of $1 gateway, $2 agent after $3 seq, at most $4, $5 since,
 * locked for this reconciler's transaction: rows another one holds are skipped. Each with its
 * latest attempt's time and its latest outcome since it was last final. */
export const claimOpen = `
SELECT ${transactionColumns},
  (SELECT max(a.at) FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt') AS attempted_at,
  (SELECT max(a.seq) FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt') AS attempt_seq,
  last.at AS outcome_at, last.source AS outcome_source, last.view AS outcome_view
FROM agentpay_open o
JOIN agentpay_transactions t ON t.seq = o.transaction_seq
LEFT JOIN LATERAL (
  SELECT r.at, r.source, r.view FROM agentpay_records r
  WHERE r.transaction_seq = t.seq AND r.kind = 'outcome' AND r.seq > COALESCE((
    SELECT max(f.seq) FROM agentpay_records f WHERE f.transaction_seq = t.seq AND f.kind = 'outcome' AND f.state IN ('success', 'failed')), 0)
  ORDER BY r.seq DESC LIMIT 1
) last ON true
WHERE t.gateway = $1 AND t.agent_id = $2 AND o.transaction_seq > $3 AND ${since('$5')}
ORDER BY o.transaction_seq
LIMIT $4
FOR UPDATE OF o SKIP LOCKED`;

/** A page of transactions after $1 seq, at most $2, $3 since, $4 operator, $5 gateway, $6 shift (null: all). */
const transactionPage = `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.seq > $1 AND ${since('$3')} AND ($4::text IS NULL OR t.operator = $4) AND ($5::text IS NULL OR t.gateway = $5)
  AND ($6::bigint IS NULL OR t.shift_seq = $6)
ORDER BY t.seq LIMIT $2`;

/** The gateways of the transactions $1 since, $2 operator, $3 gateway (null: all), in order of first appearance. */
const gatewaysOf = `
SELECT t.gateway FROM agentpay_transactions t
WHERE ${since('$1')} AND ($2::text IS NULL OR t.operator = $2) AND ($3::text IS NULL OR t.gateway = $3)
GROUP BY t.gateway ORDER BY min(t.seq)`;

/** The records of the transactions $1 (seqs), in order, with who made each attempt and the guards lifted for it. */
const recordsOf = `
SELECT ${recordFields.join(', ')} FROM agentpay_records
WHERE transaction_seq = ANY($1::bigint[]) ORDER BY transaction_seq, seq`;

/** Every record after $1 seq, at most $2, with its transaction (ledger export). */
const recordPage = `
SELECT r.seq AS record_seq, r.kind, r.at AS record_at, r.source, r.view, r.operator AS record_operator, r.host AS record_host, r.overrides, ${transactionColumns}
FROM agentpay_records r JOIN agentpay_transactions t ON t.seq = r.transaction_seq
WHERE r.seq > $1 ORDER BY r.seq LIMIT $2`;

/** The transactions of $1 gateway, $2 agent whose latest attempt is at or after $3, made by $4
 * operator (that attempt's; null: none) or to one of $5 accounts, oldest first. Their state is worked out from their
 * records (recordsOf) by the ledger's own rules, as for a receipt. */
const recentTransactions = `
WITH chosen AS (
  SELECT t.seq FROM agentpay_transactions t WHERE t.gateway = $1 AND t.agent_id = $2 AND t.account = ANY($5::text[])
  UNION SELECT a.transaction_seq FROM agentpay_records a
  WHERE $4::text IS NOT NULL AND a.kind = 'attempt' AND a.at >= $3 AND a.operator = $4
), latest AS (
  SELECT DISTINCT ON (a.transaction_seq) a.transaction_seq, a.seq AS attempt_seq, a.operator AS record_operator
  FROM agentpay_records a
  WHERE a.kind = 'attempt' AND a.at >= $3 AND a.transaction_seq IN (SELECT seq FROM chosen)
  ORDER BY a.transaction_seq, a.seq DESC
)
SELECT ${transactionColumns}, (
  SELECT json_agg(json_build_object(${recordFields.map((field) => `'${field}', r.${field}${bigints.has(field) ? '::text' : ''}`).join(', ')}) ORDER BY r.seq)
  FROM agentpay_records r WHERE r.transaction_seq = t.seq
) AS records
FROM latest l JOIN agentpay_transactions t ON t.seq = l.transaction_seq
WHERE t.gateway = $1 AND t.agent_id = $2 AND (l.record_operator = $4 OR t.account = ANY($5::text[]))
ORDER BY l.attempt_seq`;
/** The transactions of $1 TransactionID, of $2 gateway and $3 agent (null: any), in order of first intent. */
const transactionsById = `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.transaction_id = $1 AND ($2::text IS NULL OR t.gateway = $2) AND ($3::text IS NULL OR t.agent_id = $3)
ORDER BY t.seq`;

/** What the shared reads (sql/reads.ts) send to PostgreSQL. */
export const reads: ReadStatements = {
  openOwners,
  transactionPage,
  gatewaysOf,
  recordsOf,
  recordPage,
  recentTransactions,
  transactionsById,
};
