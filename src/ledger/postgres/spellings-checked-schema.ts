/** Migration 8: one spelling of a payment's key (gateway, agent), so no request's TransactionID is
 * written under another; NOT VALID keeps migration 7's rows apart; "sandbox"/"replay" stay importable. */
export const spellingsCheckedMigration = ['agentpay_transactions', 'agentpay_approvals']
  .map(
    (table) => `
ALTER TABLE ${table} ADD CONSTRAINT ${table}_one_spelling CHECK (
  (gateway IN ('sandbox', 'replay') OR (gateway ~ '^https?://[^/A-Z]+(/.*[^/])?$'
    AND gateway !~ '^https?://localhost[.]?(:|/|$)' AND gateway !~ '^http://[^/]+:80(/|$)'
    AND gateway !~ '^https://[^/]+:443(/|$)'))
  AND agent_id ~ '^(0|[1-9][0-9]{0,18})$') NOT VALID;`,
  )
  .join('\n');
