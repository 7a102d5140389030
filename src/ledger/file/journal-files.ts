import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import type { StorageAction } from '../../i18n/en.js';

/**
 * The files one journal is kept in once `ledger compact` has run (docs/reliability.md,
 * "Compacting the journal"), all beside the journal `J` and named after it:
 * - `J`: where every record is appended, as always;
 * - `J.open-<n>`: the records of the transactions still open when cut n was compacted, in
 *   journal order. Only the highest n counts; a lower one is left over, about to be removed;
 * - `J.cut-<n>/<id>/journal`: cut n, the journal as it was renamed away by a compaction (<id>
 *   is that compaction's). It counts while no `J.open-<n>` (or higher) exists; once one does,
 *   its records are all in it or in the archive;
 * - `J.archive/<day>.<n>.jsonl`: the closed transactions of cut n, by the UTC day of their last
 *   intent, never changed once written;
 * - `J.archive/cut-<n>.<inode>.length`: the bytes of cut n (the file whose inode number it
 *   names) that count, fixed by the first to look into the cut (cut-length.ts), kept for good;
 * - `J.damaged`: the lines that were not records, moved out once;
 * - `J.tmp-<id>`: a compaction's work in progress, never read.
 * The live records, those of transactions that may still be open, are read in the order
 * J.open-<n>, J.cut-<n+1> (up to its fixed length), J; the archive holds only closed ones,
 * older than all of them (open-for-reading.ts opens them so).
 *
 * This file names them and lists what is there.
 */

export const openRecordsPath = (journal: string, generation: number) => `${journal}.open-${generation}`;
export const cutDirectory = (journal: string, generation: number) => `${journal}.cut-${generation}`;
export const segmentPath = (journal: string, generation: number, id: string) =>
  join(cutDirectory(journal, generation), id, 'journal');
export const archiveDirectory = (journal: string) => `${journal}.archive`;
export const archivePath = (journal: string, day: string, generation: number) =>
  join(archiveDirectory(journal), `${day}.${generation}.jsonl`);
export const damagedPath = (journal: string) => `${journal}.damaged`;
export const temporaryPath = (journal: string, id: string) => `${journal}.tmp-${id}`;
export const cutLengthPath = (journal: string, generation: number, inode: number) =>
  join(archiveDirectory(journal), `cut-${generation}.${inode}.length`);
export const randomId = () => randomBytes(6).toString('hex');

/** A cut's directory and what is in it: normally one holder, with the journal it cut once it has. */
interface Cut {
  generation: number;
  holders: { id: string; cut: boolean }[];
}

export interface JournalState {
  /** The generations of `J.open-<n>` present, ascending: the last one counts. */
  openGenerations: number[];
  cuts: Cut[];
  /** `J.tmp-<id>` entries: a compaction's work in progress, or left by one that died. */
  temporaries: string[];
}

export const currentGeneration = (state: JournalState): number => state.openGenerations.at(-1) ?? 0;

export function listDirectory(directory: string, what: StorageAction): string[] {
  try {
    return readdirSync(directory);
  } catch (error) {
    const code = errnoCodeOf(error);
    if (code === 'ENOENT') return [];
    throw code === undefined ? error : new LocalStorageError(what, directory, error);
  }
}

/** What a directory listing shows of the journal's files now. */
export function journalState(journal: string): JournalState {
  const prefix = `${basename(journal)}.`;
  const state: JournalState = { openGenerations: [], cuts: [], temporaries: [] };
  for (const name of listDirectory(dirname(journal), "read the journal's directory")) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const open = /^open-(\d{1,9})$/.exec(rest);
    const cut = /^cut-(\d{1,9})$/.exec(rest);
    if (open) state.openGenerations.push(Number(open[1]));
    else if (rest.startsWith('tmp-')) state.temporaries.push(join(dirname(journal), name));
    else if (cut) {
      const generation = Number(cut[1]);
      const holders = listDirectory(cutDirectory(journal, generation), 'read the journal cut').map((id) => ({
        id,
        cut: existsSync(segmentPath(journal, generation, id)),
      }));
      state.cuts.push({ generation, holders });
    }
  }
  state.openGenerations.sort((a, b) => a - b);
  state.cuts.sort((a, b) => a.generation - b.generation);
  return state;
}
