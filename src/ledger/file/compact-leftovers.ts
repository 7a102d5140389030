import { lstatSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { removeFile, syncDirectory } from '../../durable.js';
import { errnoCodeOf } from '../../errors.js';
import { releaseClaim, removeEmptyDirectory } from './compact-claim.js';
import { cutDirectory, type JournalState, openRecordsPath, segmentPath } from './journal-files.js';

/**
 * Step 4 of a compaction (compact.ts): what a compacted cut leaves removed, by the compaction
 * that compacted it or by the next one (one killed before it removed them, or one that found
 * the cut compacted meanwhile), with the temporary files of compactions that died.
 */

/** A temporary file of a cut not yet compacted, older than this, was left by a compaction that died. */
const abandonedAfterMs = 3_600_000;

/** Where an earlier version kept a cut's length: removed with the cut. */
const lengthPath = (journal: string, generation: number, id: string) =>
  join(cutDirectory(journal, generation), id, 'length');

/** Removes cut n once compacted, and the open records it replaced. */
export function removeCompactedCut(journal: string, generation: number, id: string): void {
  removeFile(segmentPath(journal, generation, id));
  removeFile(lengthPath(journal, generation, id));
  releaseClaim(journal, generation, id);
  if (generation > 1) removeFile(openRecordsPath(journal, generation - 1));
  syncDirectory(dirname(journal));
}

/** Removes what compacted cuts and earlier open records leave, and old temporary files. */
export function removeLeftovers(journal: string, state: JournalState, generation: number): void {
  let removed = false;
  for (const cut of state.cuts) {
    if (cut.generation > generation) continue;
    for (const { id } of cut.holders) {
      removeFile(segmentPath(journal, cut.generation, id));
      removeFile(lengthPath(journal, cut.generation, id));
    }
    for (const { id } of cut.holders) removeEmptyDirectory(join(cutDirectory(journal, cut.generation), id));
    removeEmptyDirectory(cutDirectory(journal, cut.generation));
    removed = true;
  }
  for (const older of state.openGenerations) {
    if (older >= generation) continue;
    removeFile(openRecordsPath(journal, older));
    removed = true;
  }
  const now = Date.now();
  for (const path of state.temporaries) {
    // Named after the cut they are for: once it is compacted, nobody needs them.
    const cut = /\.tmp-(\d+)-\w+$/.exec(path);
    try {
      if ((cut === null || Number(cut[1]) > generation) && now - lstatSync(path).mtimeMs < abandonedAfterMs) continue;
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') continue;
      throw error;
    }
    rmSync(path, { recursive: true, force: true });
    removed = true;
  }
  if (removed) syncDirectory(dirname(journal));
}
