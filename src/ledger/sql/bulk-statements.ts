// Bulk statements that read alike in both dialects: the file's table (`agentpay_bulk_plan`, this connection's)
// and the rows runs kept (`agentpay_bulk_rows`). A cell left out is NULL, compared with IS DISTINCT FROM.

const purchase = ['service', 'account', 'currency', 'invoice_id', 'invoice_position', 'amount'];
const order = ['line', 'row_key', ...purchase];
const plan = [...order, 'transaction_id', 'earlier', 'start', 'paid_amount', 'paid_invoice_id', 'voucher', 'lifted'];

/** The file's table's columns, in SQL: `type(name)` spells each dialect's type for a column. */
export const planColumns = (type: (name: string) => string) =>
  plan
    .map(
      (name) =>
        `${name} ${type(name)}${name === 'line' ? ' PRIMARY KEY' : ''}${name === 'earlier' ? ' NOT NULL DEFAULT 0' : ''}`,
    )
    .join(', ');

/** The order columns in the order of `addRows`' JSON fields, and the plan columns `update` sets. */
export const orderColumnNames = order;
export const keptColumns = `run_key, ${order.join(', ')}, transaction_id, at`;

const keysTwice = `
WITH firsts AS (
  SELECT row_key, min(line) AS first FROM agentpay_bulk_plan WHERE row_key IS NOT NULL GROUP BY row_key HAVING count(*) > 1
)
SELECT p.line, p.row_key, f.first FROM agentpay_bulk_plan p JOIN firsts f ON f.row_key = p.row_key
WHERE p.line > f.first ORDER BY p.line`;

const purchasesTwice = `
WITH firsts AS (
  SELECT ${purchase.join(', ')}, min(line) AS first FROM agentpay_bulk_plan
  GROUP BY ${purchase.join(', ')} HAVING count(*) > 1
)
SELECT p.line, f.first FROM agentpay_bulk_plan p JOIN firsts f ON ${purchase
  .map((name) => `p.${name} IS NOT DISTINCT FROM f.${name}`)
  .join(' AND ')}
WHERE p.line > f.first ORDER BY p.line`;

const changed = `
SELECT ${order.map((name) => `r.${name}`).join(', ')}, ${order.map((name) => `p.${name} AS now_${name}`).join(', ')}
FROM agentpay_bulk_rows r LEFT JOIN agentpay_bulk_plan p ON p.line = r.line
WHERE r.run_key = $1 AND (p.line IS NULL OR ${order
  .slice(1)
  .map((name) => `p.${name} IS DISTINCT FROM r.${name}`)
  .join(' OR ')})
ORDER BY r.line`;

const takeEarlier = `
UPDATE agentpay_bulk_plan SET transaction_id = r.transaction_id, earlier = 1
FROM agentpay_bulk_rows r WHERE r.run_key = $1 AND r.line = agentpay_bulk_plan.line`;

const count = 'SELECT count(*) AS count FROM agentpay_bulk_plan';
const currencies = 'SELECT DISTINCT currency FROM agentpay_bulk_plan';

const pageOf = (where: string) =>
  `SELECT ${plan.join(', ')} FROM agentpay_bulk_plan WHERE line > $1${where} ORDER BY line LIMIT $2`;
const page = pageOf('');
const earlierPage = pageOf(' AND earlier = 1');
const voucherPage = pageOf(" AND start = 'new' AND (invoice_id IS NOT NULL OR invoice_position IS NOT NULL)");

const startNew = `
UPDATE agentpay_bulk_plan SET start = 'new', paid_amount = amount, paid_invoice_id = invoice_id, voucher = NULL
WHERE earlier = 0`;

const accounts = `
SELECT DISTINCT account FROM agentpay_bulk_plan
WHERE (start IS NULL OR start <> 'final') AND account > $1 ORDER BY account LIMIT $2`;

/** The statements of both dialects, as sql/bulk-runs.ts names them. */
export const sharedBulkStatements = {
  keysTwice,
  purchasesTwice,
  changed,
  takeEarlier,
  count,
  currencies,
  page,
  earlierPage,
  voucherPage,
  startNew,
  accounts,
};
