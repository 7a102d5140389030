import type { BulkStatements } from '../sql/bulk-runs.js';
import * as shared from '../sql/bulk-statements.js';
import type { Query } from '../sql/rows.js';
import { reads } from './queries.js';

/** A bulk run's statements in PostgreSQL's spelling (sql/bulk-statements.ts has those of both): lists as JSON. */

const integers = new Set(['line', 'invoice_position', 'earlier']);
const typeOf = (name: string) => (integers.has(name) ? 'integer' : 'text');
/** The JSON list $n as rows of these fields. */
const recordset = (placeholder: string, fields: readonly string[]) =>
  `json_to_recordset(${placeholder}::json) AS j(${fields.map((name) => `${name} ${typeOf(name)}`).join(', ')})`;

const transactionColumns =
  't.seq, t.gateway, t.agent_id, t.transaction_id, t.service, t.account, t.amount, t.currency, t.invoice_id, t.at, t.operator, t.host, t.voucher';
const planned = ['start', 'paid_amount', 'paid_invoice_id', 'voucher', 'lifted'];
const orderFields = shared.orderColumnNames.map((name) => (name === 'row_key' ? 'key' : name));

export const bulkStatements: BulkStatements = {
  ...shared.sharedBulkStatements,
  createPlan: [
    'DROP TABLE IF EXISTS pg_temp.agentpay_bulk_plan',
    `CREATE TEMP TABLE agentpay_bulk_plan (${shared.planColumns(typeOf)})`,
    'CREATE INDEX ON pg_temp.agentpay_bulk_plan (row_key)',
    'CREATE INDEX ON pg_temp.agentpay_bulk_plan (account, service, currency, invoice_id, invoice_position, amount)',
  ],
  dropPlan: 'DROP TABLE IF EXISTS pg_temp.agentpay_bulk_plan',
  addRows: `
INSERT INTO agentpay_bulk_plan (${shared.orderColumnNames.join(', ')})
SELECT ${orderFields.join(', ')} FROM ${recordset('$1', orderFields)}`,
  transactionsOf: `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.gateway = $1 AND t.agent_id = $2 AND t.transaction_id = ANY($3::text[])`,
  recordsOf: reads.recordsOf,
  update: `
UPDATE agentpay_bulk_plan p SET ${planned.map((name) => `${name} = j.${name}`).join(', ')}
FROM ${recordset('$1', ['line', ...planned])} WHERE p.line = j.line`,
  setIds: `
UPDATE agentpay_bulk_plan p SET transaction_id = j.transaction_id
FROM ${recordset('$1', ['line', 'transaction_id'])} WHERE p.line = j.line`,
  keepRows: `
INSERT INTO agentpay_bulk_rows (${shared.keptColumns})
SELECT $1, ${shared.orderColumnNames.map((name) => `p.${name}`).join(', ')}, p.transaction_id, $3::timestamptz
FROM agentpay_bulk_plan p
WHERE p.earlier = 0 AND p.line IN (SELECT line FROM ${recordset('$2', ['line'])})`,
};

/** Statements in one transaction, in a turn of the connection held already; rolled back whole if one fails. */
export async function inTransaction(queryNow: Query, statements: readonly [string, unknown[]][]): Promise<void> {
  await queryNow('BEGIN', []);
  try {
    for (const [text, values] of statements) await queryNow(text, values);
    await queryNow('COMMIT', []);
  } catch (error) {
    await queryNow('ROLLBACK', []).catch(() => undefined);
    throw error;
  }
}
