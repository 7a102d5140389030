import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { syncDirectory } from '../../durable.js';
import { errnoCodeOf } from '../../errors.js';
import {
  currentGeneration,
  cutDirectory,
  journalState,
  randomId,
  segmentPath,
  temporaryPath,
} from './journal-files.js';

/**
 * Step 1 of a compaction (compact.ts): cut n claimed by renaming a directory prepared aside
 * onto `J.cut-<n>`, then J renamed into it; a claim left without its cut taken over; a claim
 * let go.
 */

/** How long a claim may stay without its cut before another compaction takes it over. */
const claimPatienceMs = 250;

/** rmdir(2) of a directory, if it is there and empty. */
export function removeEmptyDirectory(directory: string): void {
  try {
    rmdirSync(directory);
  } catch (error) {
    if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(errnoCodeOf(error) ?? '')) throw error;
  }
}

/** Lets go of a claim: its holder's directory, and the claim's if that leaves it empty. */
export function releaseClaim(journal: string, generation: number, id: string): void {
  removeEmptyDirectory(join(cutDirectory(journal, generation), id));
  removeEmptyDirectory(cutDirectory(journal, generation));
}

/** Claims cut n and renames J into it: 'cut', or 'nothing' (no journal to cut), or 'lost' (another took cut n). */
export function cutJournal(journal: string, generation: number): 'cut' | 'nothing' | 'lost' {
  try {
    if (statSync(journal).size === 0) return 'nothing';
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return 'nothing';
    throw error;
  }
  const id = randomId();
  const aside = temporaryPath(journal, `${generation}-${id}`);
  mkdirSync(join(aside, id), { recursive: true, mode: 0o700 });
  const claim = cutDirectory(journal, generation);
  try {
    renameSync(aside, claim);
  } catch (error) {
    rmSync(aside, { recursive: true, force: true });
    // Taken (ENOTEMPTY, EEXIST), or its directory aside removed as left over from a stale look (ENOENT).
    if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errnoCodeOf(error) ?? '')) return 'lost';
    throw error;
  }
  // Claimed from a stale look: cut n was compacted meanwhile, and its claim left empty.
  if (currentGeneration(journalState(journal)) >= generation) {
    releaseClaim(journal, generation, id);
    return 'lost';
  }
  try {
    renameSync(journal, segmentPath(journal, generation, id));
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw error;
    // Either the claim was taken over (its directory removed), or the journal is gone.
    if (!existsSync(join(claim, id))) return 'lost';
    releaseClaim(journal, generation, id);
    return 'nothing';
  }
  for (const directory of [join(claim, id), claim, dirname(journal)]) syncDirectory(directory);
  return 'cut';
}

/** Cut n is claimed but not cut: wait for the cut a moment, then take the claim over (compact.ts, step 1). */
export async function takeOver(journal: string, generation: number, id: string): Promise<void> {
  const holder = join(cutDirectory(journal, generation), id);
  for (let waited = 0; waited < claimPatienceMs; waited += 10) {
    if (!existsSync(holder) || existsSync(segmentPath(journal, generation, id))) return;
    await sleep(10);
  }
  // Not empty: it cut after all, and is compacted next time round.
  removeEmptyDirectory(holder);
}
