import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { LedgerLocation } from '../ledger-location.js';
import { t } from '../run-scope.js';
import type { Ledger } from './ledger.js';
import type { LedgerAdministration } from './team-ledger.js';

/** Where an earlier agentpay kept its journal by default, beside today's ledger. */
const oldJournalName = 'journal.jsonl';

export interface LedgerOpening {
  /** Who the ledger records as operator, unless the backend knows better (ledger.ts recordsAs). */
  operator: string;
  env: NodeJS.ProcessEnv;
  /** Where a team ledger's outcomes wait on this machine while its database is away. */
  stateDirectory: string;
  /** The ledger was not named: an earlier agentpay's journal beside it is pointed out. */
  byDefault: boolean;
  /** A message for the person. */
  note(message: string): void;
  stop?: AbortSignal | undefined;
}

type TeamLocation = LedgerLocation & { kind: 'postgres' };

/** The ledger at `location`; the PostgreSQL driver is loaded only for a postgres:// one. */
export async function openLedger(location: LedgerLocation, options: LedgerOpening): Promise<Ledger> {
  const { operator, env, stateDirectory, note } = options;
  if (location.kind === 'postgres') {
    const { PostgresLedger } = await import('./postgres/postgres-ledger.js');
    return PostgresLedger.open(location, { env, operator, stateDirectory, note });
  }
  const { SqliteLedger } = await import('./sqlite/sqlite-ledger.js');
  const ledger = await SqliteLedger.open(location, { by: { operator, host: hostname() }, note, stop: options.stop });
  const oldJournal = join(dirname(location.path), oldJournalName);
  // After an upgrade: the payments of the old journal are named, a line a command, until imported.
  if (options.byDefault && existsSync(oldJournal) && !(await ledger.hasImported(oldJournal)))
    note(t().ledger.oldJournalFound(oldJournal));
  return ledger;
}

/** The team ledger as its administrator reaches it (team-ledger.ts). */
export async function openLedgerAdministration(
  location: TeamLocation,
  env: NodeJS.ProcessEnv,
): Promise<LedgerAdministration> {
  return (await import('./postgres/administration.js')).openAdministration(location, env);
}

/** The team ledger looked at without changing it (`doctor`). */
export async function inspectTeamLedger(location: TeamLocation, env: NodeJS.ProcessEnv, stateDirectory: string) {
  return (await import('./postgres/administration.js')).inspectTeamLedger(location, env, stateDirectory);
}
