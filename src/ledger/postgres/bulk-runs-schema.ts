/** Migration 9: each bulk run's rows (sql/bulk-runs.ts), append-only, written before its Payments
 * leave; and an index of payments by account, so a look-back reads only those. Safe to apply twice. */
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
