import type pg from 'pg';
import { LedgerUnreachableError } from '../../errors.js';
import { approvalsMigration } from './approvals-schema.js';
import { bulkRunsMigration } from './bulk-runs-schema.js';
import { closedGapsMigration } from './closed-gaps-schema.js';
import { reasonOf } from './connect.js';
import { deskRulesMigration } from './desk-rules-schema.js';
import { migrateGatewaySpellings } from './gateway-spellings-schema.js';
import { grantOperatorRights, operatorRolesMigration } from './roles.js';
import { shiftsMigration } from './shifts-schema.js';
import { spellingsCheckedMigration } from './spellings-checked-schema.js';

/** The team ledger's schema as numbered migrations, each applied once. Records are append-only;
 * rows leave only `agentpay_open`, the transactions not final that reconcile claims. An outcome
 * for an attempt older than the latest is stale and closes nothing (docs/team-ledger.md). */
const migrations: readonly { version: number; name: string; sql: string | ((client: pg.Client) => Promise<void>) }[] = [
  {
    version: 1,
    name: 'transactions, records, open transactions',
    sql: `
CREATE TABLE agentpay_transactions (
  seq bigserial PRIMARY KEY,
  gateway text NOT NULL,
  agent_id text NOT NULL,
  transaction_id text NOT NULL,
  service text NOT NULL,
  account text NOT NULL,
  amount text NOT NULL,
  currency text NOT NULL,
  invoice_id text,
  at timestamptz NOT NULL,
  operator text NOT NULL,
  host text NOT NULL,
  CONSTRAINT agentpay_transactions_owner UNIQUE (gateway, agent_id, transaction_id)
);
CREATE TABLE agentpay_records (
  seq bigserial PRIMARY KEY,
  record_id uuid NOT NULL UNIQUE,
  transaction_seq bigint NOT NULL REFERENCES agentpay_transactions (seq),
  kind text NOT NULL CHECK (kind IN ('attempt', 'outcome')),
  at timestamptz NOT NULL,
  source text CHECK (source IN ('payment', 'settle', 'reconcile')),
  state text CHECK (state IN ('success', 'failed', 'pending', 'unknown')),
  view jsonb,
  answers_attempt bigint,
  operator text NOT NULL,
  host text NOT NULL,
  CHECK ((kind = 'attempt') = (view IS NULL))
);
CREATE INDEX agentpay_records_by_transaction ON agentpay_records (transaction_seq, seq);
CREATE INDEX agentpay_transactions_by_time ON agentpay_transactions (at);
CREATE TABLE agentpay_open (
  transaction_seq bigint PRIMARY KEY REFERENCES agentpay_transactions (seq)
);
CREATE FUNCTION agentpay_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'agentpay ledger records are append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END $$;
CREATE TRIGGER agentpay_transactions_append_only BEFORE UPDATE OR DELETE ON agentpay_transactions
  FOR EACH ROW EXECUTE FUNCTION agentpay_append_only();
CREATE TRIGGER agentpay_records_append_only BEFORE UPDATE OR DELETE ON agentpay_records
  FOR EACH ROW EXECUTE FUNCTION agentpay_append_only();
`,
  },
  {
    version: 2,
    name: 'the voucher bought, the guards lifted, recent payments by time',
    sql: `
ALTER TABLE agentpay_transactions ADD COLUMN voucher text;
ALTER TABLE agentpay_records ADD COLUMN overrides text[];
CREATE INDEX agentpay_attempts_by_time ON agentpay_records (at) WHERE kind = 'attempt';
`,
  },
  { version: 3, name: 'operators as database roles: who is session_user', sql: operatorRolesMigration },
  { version: 4, name: 'approvals: the two-person rule', sql: approvalsMigration },
  { version: 5, name: 'shifts and their Z-reports', sql: shiftsMigration },
  { version: 6, name: "the desk's rules kept by the database", sql: deskRulesMigration },
  { version: 7, name: 'one name for one gateway', sql: migrateGatewaySpellings },
  { version: 8, name: 'one spelling for a gateway, an agent, a TransactionID', sql: spellingsCheckedMigration },
  { version: 9, name: 'the rows of each bulk run', sql: bulkRunsMigration },
  {
    version: 10,
    name: 'a gateway in its one form only, bulk rows bound to their purchases, shifts by the clock',
    sql: closedGapsMigration,
  },
];

export const schemaVersion = migrations.at(-1)!.version;

/** The transaction-level advisory lock migrations run under (a two-int key: agentpay's own space). */
const migrationLock = 'SELECT pg_advisory_xact_lock(1095189584, 1)';

/** The version the database is at: 0 for an empty one. One round trip when it is set up (every command asks). */
export async function versionOf(client: pg.Client): Promise<number> {
  try {
    const result = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM agentpay_schema_migrations',
    );
    return result.rows[0]?.version ?? 0;
  } catch (error) {
    // 42P01 undefined_table: nothing set up yet.
    if ((error as { code?: unknown }).code === '42P01') return 0;
    throw error;
  }
}

/** Applies what is missing, under an advisory lock: two processes starting at once on an empty
 * database run each migration once (the second waits, then finds nothing to do). Returns the
 * migrations applied. */
export async function migrate(client: pg.Client): Promise<{ version: number; name: string }[]> {
  const applied: { version: number; name: string }[] = [];
  await client.query('BEGIN');
  try {
    // A migration's ALTER TABLE waits for every reader of the table: a desk behind a long query
    // is told so (exit 4, nothing sent) instead of stalling with its intents queued.
    await client.query("SET LOCAL lock_timeout = '10s'");
    await client.query(migrationLock);
    await client.query(
      'CREATE TABLE IF NOT EXISTS agentpay_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const current = await versionOf(client);
    for (const migration of migrations.filter(({ version }) => version > current)) {
      // A migration that rewrites rows by a rule of agentpay's own (migration 7) is code, not SQL.
      await (typeof migration.sql === 'string' ? client.query(migration.sql) : migration.sql(client));
      await client.query('INSERT INTO agentpay_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push({ version: migration.version, name: migration.name });
    }
    // Tables a migration made are the operators' to use too, once a desk has operator roles.
    if (applied.length > 0) await grantOperatorRights(client, { ifRolesExist: true });
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}

/** The schema this agentpay writes, applied on first use; a newer one (a later agentpay
 * migrated it) is refused rather than written in a shape it does not know. */
export async function ensureSchema(client: pg.Client, shown: string): Promise<void> {
  const version = await versionOf(client);
  if (version > schemaVersion) {
    throw new LedgerUnreachableError(
      shown,
      `its schema is version ${version}, newer than this agentpay knows (${schemaVersion})`,
      {
        consequence: 'nothing was written',
        hint: 'upgrade agentpay on this machine to the version the rest of the desk runs',
      },
    );
  }
  if (version < schemaVersion) {
    try {
      await migrate(client);
    } catch (error) {
      throw new LedgerUnreachableError(shown, `its schema could not be set up: ${reasonOf(error)}`, {
        cause: error,
        hint: 'the database user needs the right to create tables, once: run `agentpay ledger migrate` as one that has it',
      });
    }
  }
}
