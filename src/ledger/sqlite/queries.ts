import type { ReadStatements } from '../sql/reads.js';

// The local ledger's SQL: postgres/queries.ts in SQLite's spelling, the same names and $n parameters (the query
// makes them ?n), a list as JSON text read with json_each, times as ISO text.

const transactionColumns =
  't.seq, t.gateway, t.agent_id, t.transaction_id, t.service, t.account, t.amount, t.currency, t.invoice_id, ' +
  't.at, t.operator, t.host, t.voucher';
const recordFields = 'seq, transaction_seq, kind, at, source, view, answers_attempt, operator, host, overrides';

// insertIntent's parameters (sql/rows.ts intentValues) up to $13: $1..$11 the intent and who made it, $13 the
// voucher's name ($12 is the attempt's record id). Its seq, none when the TransactionID is taken.
export const insertTransaction = `
INSERT INTO agentpay_transactions
  (gateway, agent_id, transaction_id, service, account, amount, currency, invoice_id, at, operator, host, voucher)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13)
ON CONFLICT (gateway, agent_id, transaction_id) DO NOTHING
RETURNING seq`;

/** An attempt: $1 record id, $2 transaction seq, $3 at, $4 operator, $5 host, $6 the guards lifted (JSON); its seq. */
export const insertAttempt = `
INSERT INTO agentpay_records (record_id, transaction_seq, kind, at, operator, host, overrides)
VALUES ($1, $2, 'attempt', $3, $4, $5, $6)
ON CONFLICT (record_id) DO NOTHING
RETURNING seq`;

/** $1 the transaction's seq among the open ones (again, after a retry). */
export const openTransaction = 'INSERT INTO agentpay_open (transaction_seq) VALUES ($1) ON CONFLICT DO NOTHING';

/** The intent recorded for $1 gateway, $2 agent, $3 TransactionID. */
export const selectIntent = `SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.gateway = $1 AND t.agent_id = $2 AND t.transaction_id = $3`;

// One outcome: $1 record id, $2 gateway, $3 agent, $4 TransactionID, $5 at, $6 source, $7 state, $8 view
// (JSON), $9 operator, $10 host, $11 the attempt it answers. A record id already there is skipped.
export const insertOutcome = `
INSERT INTO agentpay_records
  (record_id, transaction_seq, kind, at, source, state, view, answers_attempt, operator, host)
SELECT $1, t.seq, 'outcome', $5, $6, $7, $8, $11, $9, $10 FROM agentpay_transactions t
WHERE t.gateway = $2 AND t.agent_id = $3 AND t.transaction_id = $4
ON CONFLICT (record_id) DO NOTHING`;

const attemptedSince = (since: string) => `(${since} IS NULL OR EXISTS (
  SELECT 1 FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt' AND a.at >= ${since}))`;

// The next open transactions of $1 gateway, $2 agent after $3 seq, at most $4, $5 since, leased by no one from
// $6 (now) to $7 (a lease's longest), as PostgreSQL's claimOpen gives them.
export const claimOpen = `
SELECT ${transactionColumns},
  (SELECT max(a.at) FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt') AS attempted_at,
  (SELECT max(a.seq) FROM agentpay_records a WHERE a.transaction_seq = t.seq AND a.kind = 'attempt') AS attempt_seq,
  last.at AS outcome_at, last.source AS outcome_source, last.view AS outcome_view
FROM agentpay_open o
JOIN agentpay_transactions t ON t.seq = o.transaction_seq
LEFT JOIN agentpay_leases l ON l.transaction_seq = o.transaction_seq
LEFT JOIN agentpay_records last ON last.seq = (
  SELECT max(r.seq) FROM agentpay_records r
  WHERE r.transaction_seq = t.seq AND r.kind = 'outcome' AND r.seq > COALESCE((
    SELECT max(f.seq) FROM agentpay_records f
    WHERE f.transaction_seq = t.seq AND f.kind = 'outcome' AND f.state IN ('success', 'failed')), 0))
WHERE t.gateway = $1 AND t.agent_id = $2 AND o.transaction_seq > $3 AND ${attemptedSince('$5')}
  AND (l.until IS NULL OR l.until < $6 OR l.until > $7)
ORDER BY o.transaction_seq
LIMIT $4`;

/** Leases on $1 (seqs, JSON) for $2 holder, $3 pid, until $4. */
export const takeLeases = `
INSERT INTO agentpay_leases (transaction_seq, holder, pid, until) SELECT value, $2, $3, $4 FROM json_each($1) WHERE true
ON CONFLICT (transaction_seq) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, until = excluded.until`;

/** $1 an earlier journal's real path, loaded whole at $2. */
export const journalImported =
  'INSERT INTO agentpay_imports (journal, at) VALUES ($1, $2) ON CONFLICT (journal) DO UPDATE SET at = excluded.at';
export const importedJournal = 'SELECT at FROM agentpay_imports WHERE journal = $1';

export const releaseLeases = 'DELETE FROM agentpay_leases WHERE holder = $1';
/** How many open transactions of $1 gateway, $2 agent another holder than $3 leases, from $4 to no later than $5. */
export const leasedElsewhere = `
SELECT count(*) AS held FROM agentpay_leases l
JOIN agentpay_open o ON o.transaction_seq = l.transaction_seq JOIN agentpay_transactions t ON t.seq = l.transaction_seq
WHERE t.gateway = $1 AND t.agent_id = $2 AND l.holder <> $3 AND l.until >= $4 AND l.until <= $5`;
export const leaseHolders = 'SELECT DISTINCT holder, pid FROM agentpay_leases';

export const reads: ReadStatements = {
  openOwners: `
SELECT t.gateway, t.agent_id, count(*) AS count
FROM agentpay_open o JOIN agentpay_transactions t ON t.seq = o.transaction_seq
WHERE ${attemptedSince('$1')}
GROUP BY t.gateway, t.agent_id ORDER BY t.gateway, t.agent_id`,
  transactionPage: `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.seq > $1 AND ${attemptedSince('$3')} AND ($4 IS NULL OR t.operator = $4) AND ($5 IS NULL OR t.gateway = $5)
  AND ($6 IS NULL OR t.shift_seq = $6)
ORDER BY t.seq LIMIT $2`,
  gatewaysOf: `
SELECT t.gateway FROM agentpay_transactions t
WHERE ${attemptedSince('$1')} AND ($2 IS NULL OR t.operator = $2) AND ($3 IS NULL OR t.gateway = $3)
GROUP BY t.gateway ORDER BY min(t.seq)`,
  recordsOf: `
SELECT ${recordFields} FROM agentpay_records
WHERE transaction_seq IN (SELECT value FROM json_each($1)) ORDER BY transaction_seq, seq`,
  recordPage: `
SELECT r.seq AS record_seq, r.kind, r.at AS record_at, r.source, r.view, r.operator AS record_operator,
  r.host AS record_host, r.overrides, ${transactionColumns}
FROM agentpay_records r JOIN agentpay_transactions t ON t.seq = r.transaction_seq
WHERE r.seq > $1 ORDER BY r.seq LIMIT $2`,
  recentTransactions: `
WITH chosen AS (
  SELECT t.seq FROM agentpay_transactions t
  WHERE t.gateway = $1 AND t.agent_id = $2 AND t.account IN (SELECT value FROM json_each($5))
  UNION SELECT a.transaction_seq FROM agentpay_records a INDEXED BY agentpay_attempts_by_time
  WHERE $4 IS NOT NULL AND a.kind = 'attempt' AND a.at >= $3 AND a.operator = $4
), latest AS (
  SELECT c.seq AS transaction_seq, (SELECT max(a.seq) FROM agentpay_records a
    WHERE a.transaction_seq = c.seq AND a.kind = 'attempt' AND a.at >= $3) AS attempt_seq
  FROM chosen c
)
SELECT ${transactionColumns}, (
  SELECT json_group_array(json_object('seq', r.seq, 'transaction_seq', r.transaction_seq, 'kind', r.kind, 'at', r.at,
    'source', r.source, 'view', json(r.view), 'answers_attempt', r.answers_attempt, 'operator', r.operator,
    'host', r.host, 'overrides', json(r.overrides)))
  FROM (SELECT * FROM agentpay_records WHERE transaction_seq = t.seq ORDER BY seq) r
) AS records
FROM latest l CROSS JOIN agentpay_records la ON la.seq = l.attempt_seq
  CROSS JOIN agentpay_transactions t ON t.seq = l.transaction_seq
WHERE t.gateway = $1 AND t.agent_id = $2 AND (la.operator = $4 OR t.account IN (SELECT value FROM json_each($5)))
ORDER BY l.attempt_seq`,
  transactionsById: `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.transaction_id = $1 AND ($2 IS NULL OR t.gateway = $2) AND ($3 IS NULL OR t.agent_id = $3)
ORDER BY t.seq`,
};
