import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** What the SQLite ledger asks of this machine: whether a process lives, what a file's name is. */

/** Whether a process of this machine is running (signal 0 asks without sending one). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** A journal's name wherever it was reached from: its real path, or (a compacted one whose J is gone) its absolute one. */
export function journalIdentity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
