import { chmodSync, closeSync, mkdirSync, openSync, readSync, type Stats, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { makeDirectory } from '../../durable.js';
import { errnoCodeOf, LocalStorageError, UsageError } from '../../errors.js';
import type { StorageAction } from '../../i18n/en.js';
import { t } from '../../run-scope.js';
import { isLegacyJournal } from '../journal-import/journal-files.js';

// The ledger's file: 0600 (its -wal and -shm take its mode), synchronous=FULL so a commit survives a crash, a
// short busy timeout: longer waits are write-turn.ts's, which hear Ctrl+C.

/** The first bytes of every SQLite database file. */
const sqliteHeader = 'SQLite format 3\u0000';

// statfs(2) types of network file systems, where WAL's shared memory cannot work across hosts. FUSE
// (GlusterFS, sshfs) is let through.
const networkFileSystems = new Map<number, string>([
  [0x6969, 'NFS'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x517b, 'SMB'],
  [0x01021997, '9p'],
  [0x00c36400, 'Ceph'],
  [0x5346414f, 'AFS'],
  [0x0bd00bd0, 'Lustre'],
]);

/** The network file system a directory is on, if statfs names one. */
export function networkFileSystemOf(type: number): string | undefined {
  return networkFileSystems.get(type);
}

/** What a file at the ledger's path is: nothing yet, a SQLite database, an earlier agentpay's journal, or other. */
function kindOfFile(path: string): 'none' | 'sqlite' | 'journal' | 'other' {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return 'none';
    throw new LocalStorageError('read the ledger', path, error);
  }
  try {
    const head = Buffer.alloc(16);
    let read: number;
    try {
      read = readSync(fd, head, 0, 16, 0);
    } catch (error) {
      throw new LocalStorageError('read the ledger', path, error);
    }
    if (read === 0) return 'none';
    // A header still being written (another process making the file now) is read as SQLite's.
    if (sqliteHeader.startsWith(head.toString('latin1', 0, read))) return 'sqlite';
    return isLegacyJournal(path) ? 'journal' : 'other';
  } finally {
    closeSync(fd);
  }
}

/** The ledger's file refused before SQLite touches it: a journal to import, a file of another kind, a network mount. */
function refuseUnfit(path: string): void {
  const kind = kindOfFile(path);
  if (kind === 'journal')
    throw new UsageError(t().ledger.journalNotDatabase(path), { hint: t().ledger.importHint(path) });
  if (kind === 'other') throw new UsageError(t().ledger.notADatabase(path), { hint: t().ledger.notADatabaseHint });
  const directory = dirname(path);
  const network = networkFileSystemOf(statfsSync(directory).type);
  if (network !== undefined)
    throw new UsageError(t().ledger.onNetworkFileSystem(path, network), { hint: t().ledger.onNetworkFileSystemHint });
}

/** Creates the file 0600 (and its directory 0700) before SQLite opens it, so no other user ever reads a payment. */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  // A file made by other means (touch, a copy) is made private too, with its -wal and -shm.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const stat = statIfThere(file);
    if (stat !== undefined && stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

function statIfThere(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** How long SQLite itself waits for a lock before it says SQLITE_BUSY (write-turn.ts waits on). */
const busyTimeoutMs = 20;

export function openDatabase(path: string): DatabaseSync {
  try {
    // Not mkdirSync's recursive mode: it says ENOENT where a read-only file system is the cause.
    makeDirectory(dirname(path));
  } catch (error) {
    throw new LocalStorageError('open the ledger', path, error);
  }
  refuseUnfit(path);
  let database: DatabaseSync | undefined;
  try {
    createPrivately(path);
    // Reads nothing yet: the first statements (configure) may meet another process's lock.
    database = new DatabaseSync(path, { timeout: busyTimeoutMs });
    return database;
  } catch (error) {
    database?.close();
    throw storageError('open the ledger', path, error);
  }
}

/** The connection's settings; each reads the schema, so it runs by whenFree (write-turn.ts). */
export function configure(database: DatabaseSync): void {
  database.exec('PRAGMA synchronous = FULL');
  database.exec('PRAGMA foreign_keys = ON');
}

// SQLite result codes that mean what an errno says: primary ones, and SQLITE_IOERR_SHMSIZE (extended, looked
// up first), the -shm file that cannot grow on a full disk.
const errnoOfSqlite: Record<number, string> = { 8: 'EROFS', 13: 'ENOSPC', 23: 'EACCES', 4874: 'ENOSPC' };

/** A SQLite or file system failure as LocalStorageError, its errno said where SQLite's code means one. */
export function storageError(what: StorageAction, path: string, error: unknown, consequence?: string): unknown {
  if (error instanceof UsageError || error instanceof LocalStorageError) return error;
  const sqliteCode = (error as { errcode?: unknown }).errcode;
  const errno =
    typeof sqliteCode === 'number' ? (errnoOfSqlite[sqliteCode] ?? errnoOfSqlite[sqliteCode & 0xff]) : undefined;
  const cause = errno === undefined ? error : Object.assign(new Error((error as Error).message), { code: errno });
  return new LocalStorageError(what, path, cause, consequence === undefined ? {} : { consequence });
}

/** SQLite's failures are the storage's; any other error is a bug (an internal error, exit 70). */
export function isSqliteError(error: unknown): boolean {
  return error instanceof Error && 'errcode' in error;
}
