import { join } from 'node:path';
import type { JournalRecord } from '../../src/ledger/records.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';

/**
 * The local ledger (a SQLite file) as tests read and seed it: its records as `ledger export`
 * gives them, in the order they were recorded, and records loaded as `ledger import` loads
 * them. Through the ledger's own code, so a test reads what a user's agentpay would.
 */

/** The default ledger of a terminal's env (its XDG_STATE_HOME). */
export const defaultLedger = (env: NodeJS.ProcessEnv) => join(env.XDG_STATE_HOME!, 'agentpay', 'ledger.sqlite');
/** The ledger --sandbox records in. */
export const sandboxLedger = (env: NodeJS.ProcessEnv) => join(env.XDG_STATE_HOME!, 'agentpay', 'sandbox-ledger.sqlite');

/** The ledger at `path` (made if absent), opened for `work`, closed after. */
export async function opened<T>(path: string, work: (ledger: SqliteLedger) => Promise<T>): Promise<T> {
  const ledger = await SqliteLedger.open(
    { kind: 'file', path, shown: path },
    { by: { operator: 'test', host: 'test-host' }, note: () => undefined },
  );
  try {
    return await work(ledger);
  } finally {
    await ledger.close();
  }
}

/** Every record of the ledger at `path`, oldest first. */
export function ledgerRecords(path: string): Promise<JournalRecord[]> {
  return opened(path, async (ledger) => {
    const records: JournalRecord[] = [];
    for await (const record of ledger.exportRecords()) records.push(record);
    return records;
  });
}

/** Loads records into the ledger at `path` (made if absent), as `agentpay ledger import` would. */
export async function seedLedger(path: string, records: readonly JournalRecord[]): Promise<void> {
  await opened(path, async (ledger) => {
    await ledger.importRecords(
      (async function* () {
        yield* records;
      })(),
    );
  });
}
