import { hostname } from 'node:os';
import type { Output } from '../output.js';
import { stateDirectory } from '../settings/definition.js';
import type { Settings } from '../settings/resolve.js';
import { FileLedger } from './file/file-ledger.js';
import type { Ledger } from './ledger.js';

/**
 * The ledger the settings name. The PostgreSQL driver is loaded only for a postgres:// ledger:
 * a journal file costs nothing more at start-up.
 */
export async function openLedger(
  settings: Pick<Settings, 'ledger' | 'operator' | 'env'>,
  out: Output,
  stop?: AbortSignal,
): Promise<Ledger> {
  const location = settings.ledger.value;
  if (location.kind === 'file')
    return new FileLedger(
      location,
      (message) => out.warn(message),
      { operator: settings.operator.value, host: hostname() },
      stop,
    );
  const { PostgresLedger } = await import('./postgres/postgres-ledger.js');
  return PostgresLedger.open(location, {
    env: settings.env,
    operator: settings.operator.value,
    stateDirectory: stateDirectory(settings.env),
    note: (message: string) => out.warn(message),
  });
}
