import { LedgerUnreachableError } from '../../errors.js';
import type { LedgerLocation } from '../../ledger-location.js';
import type { LedgerAdministration } from '../team-ledger.js';
import { connectLedger, reasonOf } from './connect.js';
import { countWaiting, fallbackOf } from './fallback.js';
import { changeDeskPolicy, ledgerPolicyOf } from './policy.js';
import { createOperator, dropOperator, operatorRoles } from './roles.js';
import { ensureSchema, migrate, schemaVersion, versionOf } from './schema.js';
import { scramVerifier } from './scram-verifier.js';

type TeamLocation = LedgerLocation & { kind: 'postgres' };

/** The team ledger with the administrator's URL: no fallback delivered, no role learned, migrated only when asked. */
export async function openAdministration(
  location: TeamLocation,
  env: NodeJS.ProcessEnv,
): Promise<LedgerAdministration> {
  const { client } = await connectLedger(location, env);
  let schema: Promise<void> | undefined;
  const ensured = () => (schema ??= ensureSchema(client, location.shown));
  return {
    shown: location.shown,
    schemaVersion,
    migrate: () => migrate(client),
    policy: async () => {
      await ensured();
      return ledgerPolicyOf(async (text) => (await client.query(text)).rows);
    },
    changePolicy: async (change) => {
      await ensured();
      await changeDeskPolicy(client, change);
    },
    operators: (role) => operatorRoles(client, role),
    roleExists: async (role) => {
      await ensured();
      return (await client.query('SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1', [role])).rows.length > 0;
    },
    addOperator: (role, supervisor, password) => createOperator(client, role, supervisor, scramVerifier(password)),
    removeOperator: (role) => dropOperator(client, role),
    close: async () => {
      await client.end().catch(() => undefined);
    },
  };
}

/** The team ledger looked at without changing it (`doctor`): the outcomes waiting on this machine
 * for it, and its schema version, or why it cannot be reached. */
export async function inspectTeamLedger(
  location: TeamLocation,
  env: NodeJS.ProcessEnv,
  stateDirectory: string,
): Promise<{ waiting: number; schemaVersion?: number; failure?: unknown }> {
  const waiting = countWaiting(fallbackOf(stateDirectory, location.shown));
  try {
    const { client } = await connectLedger(location, env);
    try {
      return { waiting, schemaVersion: await versionOf(client) };
    } catch (error) {
      throw new LedgerUnreachableError(location.shown, reasonOf(error), { cause: error });
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (failure) {
    return { waiting, failure };
  }
}
