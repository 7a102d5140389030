import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, LocalStorageError, type StopSignal } from '../../errors.js';
import type { StorageAction } from '../../i18n/en.js';
import { t } from '../../run-scope.js';
import { isBusy } from '../../sqlite-busy.js';
import { isSqliteError, storageError } from './database.js';

/** Where a write transaction runs, and whom it tells of a long wait. */
export interface WriteTurnPlace {
  database: DatabaseSync;
  path: string;
  note(message: string): void;
  /** Ends a wait (SIGINT, SIGTERM: main.ts), its reason the signal. */
  stop?: AbortSignal | undefined;
}

/** A wait this long is said on stderr; one this long gives up (nothing was written, nothing sent). */
const sayAfterMs = 1_000;
const giveUpAfterMs = 30_000;

/** Takes the write lock (`BEGIN IMMEDIATE`), waiting for another process's as inWriteTurn says. */
export function beginWrite(place: WriteTurnPlace, consequence?: string): Promise<void> {
  return whenFree(place, () => place.database.exec('BEGIN IMMEDIATE'), { consequence });
}

/** What a statement run by whenFree does (said if it fails), and what its failure means. */
export interface Attempt {
  action?: StorageAction;
  consequence?: string | undefined;
}

// `work` (statements that may meet another process's lock), tried again while that lock is held.
export async function whenFree<T>(
  place: WriteTurnPlace,
  work: () => T,
  { action = 'write the ledger', consequence }: Attempt = {},
): Promise<T> {
  const started = Date.now();
  let said = false;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error)) throw isSqliteError(error) ? storageError(action, place.path, error, consequence) : error;
    }
    // Only a wait is cut short: a write the lock lets through at once (an outcome after Ctrl+C) is made.
    if (place.stop?.aborted) throw new InterruptedError(place.stop.reason as StopSignal);
    const waited = Date.now() - started;
    if (waited >= giveUpAfterMs)
      throw new LocalStorageError(action, place.path, new Error(t().lock.ledgerBusy(place.path)), {
        hint: t().lock.ledgerBusyHint,
        ...(consequence === undefined ? {} : { consequence }),
      });
    if (waited >= sayAfterMs && !said) {
      said = true;
      place.note(t().lock.ledgerWaiting(place.path));
    }
    await sleep(pause, undefined, place.stop === undefined ? {} : { signal: place.stop }).catch(() => undefined);
  }
}

// `body` in one `BEGIN IMMEDIATE` transaction, committed before this resolves; a lock is waited for in short
// steps so Ctrl+C is heard. One turn at a time per connection: nothing comes between check and write.
export async function inWriteTurn<T>(
  place: WriteTurnPlace,
  body: () => T | Promise<T>,
  consequence?: string,
): Promise<T> {
  await beginWrite(place, consequence);
  try {
    const result = await body();
    place.database.exec('COMMIT');
    return result;
  } catch (error) {
    if (place.database.isTransaction) place.database.exec('ROLLBACK');
    throw isSqliteError(error) ? storageError('write the ledger', place.path, error) : error;
  }
}
