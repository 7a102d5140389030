import type pg from 'pg';
import { gatewayIdentity } from '../../protocol/gateway-identity.js';

/** Migration 7: each old spelling of a gateway rewritten to its identity (protocol/gateway-identity.ts),
 * except a TransactionID the identity holds already: it may be another purchase, so it is kept
 * apart and listed (docs/team-ledger.md "Gateway spellings"). */
const createSpellings = `
CREATE TABLE agentpay_gateway_spellings (
  spelling text NOT NULL,
  gateway text NOT NULL,
  agent_id text NOT NULL,
  transaction_id text NOT NULL,
  migrated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (spelling, agent_id, transaction_id)
);
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'agentpay_operator') THEN
    GRANT SELECT ON agentpay_gateway_spellings TO agentpay_operator;
  END IF;
END $$;
`;

/** The spellings in use, the earliest first: of two old spellings of one TransactionID, the first gets the identity. */
const spellingsInUse = `
SELECT gateway FROM (
  SELECT gateway, min(at) AS first FROM agentpay_transactions GROUP BY gateway
  UNION ALL SELECT gateway, min(requested_at) FROM agentpay_approvals GROUP BY gateway
) used GROUP BY gateway ORDER BY min(first), gateway`;

/** The rows of spelling $1 whose agent and TransactionID identity $2 holds already: kept apart, listed. */
const keepApart = `
INSERT INTO agentpay_gateway_spellings (spelling, gateway, agent_id, transaction_id)
SELECT $1, $2, k.agent_id, k.transaction_id FROM (
  SELECT agent_id, transaction_id FROM agentpay_transactions WHERE gateway = $1
  UNION SELECT agent_id, transaction_id FROM agentpay_approvals WHERE gateway = $1
) k
WHERE EXISTS (SELECT 1 FROM agentpay_transactions t
              WHERE t.gateway = $2 AND t.agent_id = k.agent_id AND t.transaction_id = k.transaction_id)
   OR EXISTS (SELECT 1 FROM agentpay_approvals a
              WHERE a.gateway = $2 AND a.agent_id = k.agent_id AND a.transaction_id = k.transaction_id)`;

const notKeptApart = (table: string) => `
NOT EXISTS (SELECT 1 FROM agentpay_gateway_spellings s
            WHERE s.spelling = $1 AND s.agent_id = ${table}.agent_id AND s.transaction_id = ${table}.transaction_id)`;

const renameTransactions = `
UPDATE agentpay_transactions t SET gateway = $2 WHERE t.gateway = $1 AND ${notKeptApart('t')}`;
const renameApprovals = `UPDATE agentpay_approvals a SET gateway = $2 WHERE a.gateway = $1 AND ${notKeptApart('a')}`;

/** Rewrites every old spelling to its identity, in the migration's transaction (schema.ts migrate). */
export async function migrateGatewaySpellings(client: pg.Client): Promise<void> {
  await client.query(createSpellings);
  const { rows } = await client.query<{ gateway: string }>(spellingsInUse);
  const renamed = rows.map(({ gateway }) => [gateway, gatewayIdentity(gateway)] as const).filter(([a, b]) => a !== b);
  if (renamed.length === 0) return;
  await client.query('ALTER TABLE agentpay_transactions DISABLE TRIGGER agentpay_transactions_append_only');
  for (const [spelling, identity] of renamed) {
    await client.query(keepApart, [spelling, identity]);
    await client.query(renameTransactions, [spelling, identity]);
    await client.query(renameApprovals, [spelling, identity]);
  }
  await client.query('ALTER TABLE agentpay_transactions ENABLE TRIGGER agentpay_transactions_append_only');
}
