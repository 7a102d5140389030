/**
 * Migration 9: the rows each bulk run keeps (`pay --from-file`, sql/bulk-runs.ts): the order's
 * cells and its TransactionID by line, written before any of the run's Payments leaves, so a
 * resume is a query. Append-only, as the records are. And the payments to an account by an
 * index: a look-back reads those, not every attempt of its window (a bulk run's own). Applied
 * again, it changes nothing.
 */
export const bulkRunsMigration = `
CREATE TABLE IF NOT EXISTS agentpay_bulk_rows (
  run_key text NOT NULL,
  line integer NOT NULL,
  row_key text,
  service text NOT NULL,
  account text NOT NULL,
  currency text NOT NULL,
  invoice_id text,
  invoice_position integer,
  amount text,
  transaction_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (run_key, line)
);
CREATE INDEX IF NOT EXISTS agentpay_transactions_by_account ON agentpay_transactions (gateway, agent_id, account);
CREATE OR REPLACE TRIGGER agentpay_bulk_rows_append_only BEFORE UPDATE OR DELETE ON agentpay_bulk_rows
  FOR EACH ROW EXECUTE FUNCTION agentpay_append_only();
`;
