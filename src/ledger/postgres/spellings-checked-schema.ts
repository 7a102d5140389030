/**
 * Migration 8: one spelling for what keys a payment (a gateway, an agent, a TransactionID), kept
 * by CHECKs, so no one writes a request's TransactionID under another spelling of its gateway.
 * NOT VALID: rows migration 7 kept apart keep their spelling; "sandbox" and "replay" stay the
 * names an older agentpay's journal gave play money (an import keeps them apart by name).
 */
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
