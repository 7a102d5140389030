import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** A journal's name wherever it was reached from: its real path, or (a compacted one whose J is gone) its absolute one. */
export function journalIdentity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
