import type { BulkStatements } from '../sql/bulk-runs.js';
import * as shared from '../sql/bulk-statements.js';
import { reads } from './queries.js';

/** A bulk run's statements in SQLite's spelling (sql/bulk-statements.ts has those of both): lists as JSON text. */

const field = (name: string) => `json_extract(j.value, '$.${name}')`;
const integers = new Set(['line', 'invoice_position', 'earlier']);

const transactionColumns =
  't.seq, t.gateway, t.agent_id, t.transaction_id, t.service, t.account, t.amount, t.currency, t.invoice_id, t.at, t.operator, t.host, t.voucher';

export const bulkStatements: BulkStatements = {
  ...shared.sharedBulkStatements,
  createPlan: [
    'DROP TABLE IF EXISTS temp.agentpay_bulk_plan',
    `CREATE TEMP TABLE agentpay_bulk_plan (${shared.planColumns((name) => (integers.has(name) ? 'INTEGER' : 'TEXT'))})`,
    'CREATE INDEX temp.agentpay_bulk_plan_by_key ON agentpay_bulk_plan (row_key)',
    'CREATE INDEX temp.agentpay_bulk_plan_by_purchase ON agentpay_bulk_plan (account, service, currency, invoice_id, invoice_position, amount)',
  ],
  dropPlan: 'DROP TABLE IF EXISTS temp.agentpay_bulk_plan',
  addRows: `
INSERT INTO agentpay_bulk_plan (${shared.orderColumnNames.join(', ')})
SELECT ${shared.orderColumnNames.map((name) => field(name === 'row_key' ? 'key' : name)).join(', ')} FROM json_each($1) j`,
  transactionsOf: `
SELECT ${transactionColumns} FROM agentpay_transactions t
WHERE t.gateway = $1 AND t.agent_id = $2 AND t.transaction_id IN (SELECT value FROM json_each($3))`,
  recordsOf: reads.recordsOf,
  update: `
UPDATE agentpay_bulk_plan SET start = ${field('start')}, paid_amount = ${field('paid_amount')},
  paid_invoice_id = ${field('paid_invoice_id')}, voucher = ${field('voucher')}, lifted = ${field('lifted')}
FROM json_each($1) j WHERE agentpay_bulk_plan.line = ${field('line')}`,
  setIds: `
UPDATE agentpay_bulk_plan SET transaction_id = ${field('transaction_id')}
FROM json_each($1) j WHERE agentpay_bulk_plan.line = ${field('line')}`,
  keepRows: `
INSERT INTO agentpay_bulk_rows (${shared.keptColumns})
SELECT $1, ${shared.orderColumnNames.map((name) => `p.${name}`).join(', ')}, p.transaction_id, $3
FROM agentpay_bulk_plan p
WHERE p.earlier = 0 AND p.line IN (SELECT ${field('line')} FROM json_each($2) j)`,
};
