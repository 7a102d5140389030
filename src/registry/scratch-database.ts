import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// A SQLite database for one run's work, in its own 0700 directory under the system's temporary one (the file
// 0600: it holds accounts), gone on `remove`. On disk since a registry may be large; never synced.
export interface ScratchDatabase {
  database: DatabaseSync;
  remove(): void;
}

/** A prepared statement of it: the one file that opens SQLite for a registry is this one. */
export type ScratchStatement = ReturnType<DatabaseSync['prepare']>;

export function openScratchDatabase(prefix: string): ScratchDatabase {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  try {
    const path = join(directory, 'scratch.sqlite');
    writeFileSync(path, '', { mode: 0o600, flag: 'wx' });
    const database = new DatabaseSync(path);
    database.exec(
      'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE; PRAGMA locking_mode = EXCLUSIVE;',
    );
    return {
      database,
      remove: () => {
        if (database.isOpen) database.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
