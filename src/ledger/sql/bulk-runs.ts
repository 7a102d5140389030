import type { BulkOrder, BulkPlan, BulkRun, ChangedBulkRow, PlannedRow } from '../bulk-run.js';
import type { JournalEntry, Owner } from '../ledger.js';
import { latestWordOf, type Query, type Row, text } from './rows.js';

// A bulk run's rows (bulk-run.ts) in either database: the statements differ by dialect (json_each in SQLite,
// json_to_recordset in PostgreSQL); what they mean, and how rows become orders and plans, is written here.
export interface BulkStatements {
  /** Make the file's table afresh (this connection's own), one statement each. */
  createPlan: readonly string[];
  dropPlan: string;
  /** $1 the orders (JSON: line, key, service, account, currency, invoice_id, invoice_position, amount). */
  addRows: string;
  keysTwice: string;
  purchasesTwice: string;
  /** $1 run key: the run's kept rows the file changed or lost, each with the file's row at its line. */
  changed: string;
  /** $1 run key: the file's rows an earlier run kept take its TransactionIDs. */
  takeEarlier: string;
  count: string;
  currencies: string;
  /** $1 after line, $2 limit: every row, an earlier run's, the rows whose voucher a check finds. */
  page: string;
  earlierPage: string;
  voucherPage: string;
  /** The rows no earlier run had: new, paying what their orders say. */
  startNew: string;
  /** $1 gateway, $2 agent, $3 TransactionIDs: their transactions. */
  transactionsOf: string;
  /** $1 seqs of transactions: their records in order (sql/reads.ts recordsOf). */
  recordsOf: string;
  /** $1 plans (JSON: line, start, paid_amount, paid_invoice_id, voucher, lifted). */
  update: string;
  /** $1 after account, $2 limit. */
  accounts: string;
  /** $1 TransactionIDs (JSON: line, transaction_id). */
  setIds: string;
  /** $1 run key, $2 lines (JSON: line), $3 at: the rows no earlier run had, kept. */
  keepRows: string;
}

export interface BulkDatabase {
  query: Query;
  /** Statements in one write transaction of the ledger. */
  transaction(statements: readonly [string, unknown[]][]): Promise<void>;
  sql: BulkStatements;
}

const optional = (value: unknown) => (value === null || value === undefined ? undefined : text(value));

function orderOfRow(row: Row, prefix = ''): BulkOrder {
  const cell = (name: string) => row[`${prefix}${name}`];
  const position = cell('invoice_position');
  return {
    line: Number(cell('line')),
    key: optional(cell('row_key')),
    service: text(cell('service')),
    account: text(cell('account')),
    currency: text(cell('currency')),
    invoiceId: optional(cell('invoice_id')),
    invoicePosition: position === null || position === undefined ? undefined : Number(position),
    amount: optional(cell('amount')),
  };
}

const starts = new Set(['final', 'open', 'new']);

export async function openBulkRun(db: BulkDatabase, owner: Owner): Promise<BulkRun> {
  const { query, sql } = db;
  await db.transaction(sql.createPlan.map((statement) => [statement, []]));
  const entriesOf = async (ids: string[]): Promise<Map<string, JournalEntry>> => {
    const found = new Map<string, JournalEntry>();
    if (ids.length === 0) return found;
    const transactions = await query(sql.transactionsOf, [owner.gateway, owner.agentId, ids]);
    if (transactions.length === 0) return found;
    const records = await query(sql.recordsOf, [transactions.map((row) => row.seq)]);
    for (const entry of latestWordOf(transactions, records)) found.set(entry.intent.transactionId, entry);
    return found;
  };
  return {
    add: (orders) =>
      db.transaction([
        [
          sql.addRows,
          [
            JSON.stringify(
              orders.map((order) => ({
                line: order.line,
                key: order.key ?? null,
                service: order.service,
                account: order.account,
                currency: order.currency,
                invoice_id: order.invoiceId ?? null,
                invoice_position: order.invoicePosition ?? null,
                amount: order.amount ?? null,
              })),
            ),
          ],
        ],
      ]),
    keysTwice: async () =>
      (await query(sql.keysTwice, [])).map((row) => ({
        line: Number(row.line),
        key: text(row.row_key),
        first: Number(row.first),
      })),
    purchasesTwice: async () =>
      new Map((await query(sql.purchasesTwice, [])).map((row) => [Number(row.line), Number(row.first)])),
    resume: async (runKey) => {
      const changed: ChangedBulkRow[] = (await query(sql.changed, [runKey])).map((row) => ({
        was: orderOfRow(row),
        now: row.now_line === null ? undefined : orderOfRow(row, 'now_'),
      }));
      if (changed.length === 0) await db.transaction([[sql.takeEarlier, [runKey]]]);
      return changed;
    },
    count: async () => Number((await query(sql.count, []))[0]?.count ?? 0),
    currencies: async () => (await query(sql.currencies, [])).map((row) => text(row.currency)),
    page: async (afterLine, limit, { entries: withEntries = true, only } = {}) => {
      const statement = only === 'earlier' ? sql.earlierPage : only === 'vouchers' ? sql.voucherPage : sql.page;
      const rows = await query(statement, [afterLine, limit]);
      const entries = await entriesOf(
        !withEntries ? [] : rows.flatMap((row) => (row.transaction_id === null ? [] : [text(row.transaction_id)])),
      );
      return rows.map((row): PlannedRow => {
        const transactionId = optional(row.transaction_id);
        const start = optional(row.start);
        return {
          ...orderOfRow(row),
          transactionId,
          earlier: Number(row.earlier) === 1,
          start: start !== undefined && starts.has(start) ? (start as PlannedRow['start']) : undefined,
          paidAmount: optional(row.paid_amount),
          paidInvoiceId: optional(row.paid_invoice_id),
          voucher: optional(row.voucher),
          lifted: row.lifted === null ? [] : (JSON.parse(text(row.lifted)) as string[]),
          entry: transactionId === undefined ? undefined : entries.get(transactionId),
        };
      });
    },
    startNew: () => db.transaction([[sql.startNew, []]]),
    update: (rows) => db.transaction([[sql.update, [JSON.stringify(rows.map(planOf))]]]),
    accounts: async (after, limit) => (await query(sql.accounts, [after, limit])).map((row) => text(row.account)),
    keep: (runKey, rows) => {
      const ids = JSON.stringify(rows.map((row) => ({ line: row.line, transaction_id: row.transactionId })));
      return db.transaction([
        [sql.setIds, [ids]],
        [sql.keepRows, [runKey, ids, new Date().toISOString()]],
      ]);
    },
    close: () => db.transaction([[sql.dropPlan, []]]),
  };
}

function planOf(row: BulkPlan & { line: number }) {
  return {
    line: row.line,
    start: row.start ?? null,
    paid_amount: row.paidAmount ?? null,
    paid_invoice_id: row.paidInvoiceId ?? null,
    voucher: row.voucher ?? null,
    lifted: JSON.stringify(row.lifted),
  };
}
