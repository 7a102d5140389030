import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { Output } from '../output.js';
import { t } from '../run-scope.js';
import { stateDirectory } from '../settings/definition.js';
import type { Settings } from '../settings/resolve.js';
import type { Ledger } from './ledger.js';

/** Where an earlier agentpay kept its journal by default, beside today's ledger. */
const oldJournalName = 'journal.jsonl';

/**
 * The ledger the settings name: a SQLite file on this machine, or PostgreSQL. The PostgreSQL
 * driver is loaded only for a postgres:// ledger: a local ledger costs nothing more at start-up.
 */
export async function openLedger(
  settings: Pick<Settings, 'ledger' | 'operator' | 'env'>,
  out: Output,
  stop?: AbortSignal,
): Promise<Ledger> {
  const location = settings.ledger.value;
  if (location.kind === 'file') {
    const { SqliteLedger } = await import('./sqlite/sqlite-ledger.js');
    const ledger = await SqliteLedger.open(location, {
      by: { operator: settings.operator.value, host: hostname() },
      note: (message) => out.warn(message),
      stop,
    });
    const oldJournal = join(dirname(location.path), oldJournalName);
    // After an upgrade: the payments of the old journal are named, a line a command, until imported.
    if (settings.ledger.source === 'default' && existsSync(oldJournal) && !(await ledger.hasImported(oldJournal)))
      out.warn(t().ledger.oldJournalFound(oldJournal));
    return ledger;
  }
  const { PostgresLedger } = await import('./postgres/postgres-ledger.js');
  return PostgresLedger.open(location, {
    env: settings.env,
    operator: settings.operator.value,
    stateDirectory: stateDirectory(settings.env),
    note: (message: string) => out.warn(message),
  });
}
