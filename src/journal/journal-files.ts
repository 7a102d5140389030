import { closeSync, existsSync, fstatSync, openSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../errors.js';

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
 * - `J.damaged`: the lines that were not records, moved out once;
 * - `J.tmp-<id>`: a compaction's work in progress, never read.
 * The live records, those of transactions that may still be open, are read in the order
 * J.open-<n>, J.cut-<n+1>, J; the archive holds only closed ones, older than all of them.
 */

export const openRecordsPath = (journal: string, generation: number) => `${journal}.open-${generation}`;
export const cutDirectory = (journal: string, generation: number) => `${journal}.cut-${generation}`;
export const segmentPath = (journal: string, generation: number, id: string) => join(cutDirectory(journal, generation), id, 'journal');
export const archiveDirectory = (journal: string) => `${journal}.archive`;
export const archivePath = (journal: string, day: string, generation: number) => join(archiveDirectory(journal), `${day}.${generation}.jsonl`);
export const damagedPath = (journal: string) => `${journal}.damaged`;
export const temporaryPath = (journal: string, id: string) => `${journal}.tmp-${id}`;

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

function listDirectory(directory: string, what: string): string[] {
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

/** The live files in reading order, without J: the current open records, then any cut not yet compacted. */
function liveFilesOf(journal: string, state: JournalState): string[] {
  const generation = currentGeneration(state);
  const files = generation > 0 ? [openRecordsPath(journal, generation)] : [];
  for (const cut of state.cuts) {
    if (cut.generation <= generation) continue;
    for (const holder of cut.holders) if (holder.cut) files.push(segmentPath(journal, cut.generation, holder.id));
  }
  return files;
}

/** A file of the journal, opened for reading. */
export interface OpenedFile {
  path: string;
  fd: number;
}

function openForReading(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch (error) {
    const code = errnoCodeOf(error);
    if (code === 'ENOENT') return undefined;
    throw code === undefined ? error : new LocalStorageError('read the journal', path, error);
  }
}

export function closeAll(files: readonly OpenedFile[]): void {
  for (const file of files) closeSync(file.fd);
}

/** The inode a path names now, as `dev:ino`, or `none`. */
function identityOf(path: string): string {
  try {
    const { dev, ino } = statSync(path);
    return `${dev}:${ino}`;
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return 'none';
    throw errnoCodeOf(error) === undefined ? error : new LocalStorageError('read the journal', path, error);
  }
}

const tries = 200;

/**
 * The live files (the current open records, a cut not yet compacted, J), opened as they were at
 * one moment. A compaction may move records between them while they are opened: the files are
 * listed, opened, and listed again, and opened again if anything changed in between. Once
 * open, a file's records stay readable whatever is renamed or removed.
 */
export function openLiveFiles(journal: string): OpenedFile[] {
  for (let attempt = 0; attempt < tries; attempt++) {
    const before = liveFilesOf(journal, journalState(journal));
    const opened: OpenedFile[] = [];
    let complete = true;
    try {
      for (const path of before) {
        const fd = openForReading(path);
        if (fd === undefined) {
          complete = false;
          break;
        }
        opened.push({ path, fd });
      }
      if (complete) {
        const fd = openForReading(journal);
        if (fd !== undefined) opened.push({ path: journal, fd });
        const { dev, ino } = fd === undefined ? { dev: 0, ino: 0 } : fstatSync(fd);
        const after = liveFilesOf(journal, journalState(journal));
        const same = after.length === before.length && after.every((path, i) => path === before[i]);
        if (same && identityOf(journal) === (fd === undefined ? 'none' : `${dev}:${ino}`)) return opened;
      }
    } catch (error) {
      closeAll(opened);
      throw error;
    }
    closeAll(opened);
  }
  throw new LocalStorageError('read the journal', journal, new Error('its files kept changing while they were opened (compactions running back to back?)'));
}

/**
 * The archive's files, oldest first (by day, then by cut): all of them, or those of
 * transactions last attempted on `fromDay` (a UTC YYYY-MM-DD) or later. List them after
 * opening the live files: a transaction that leaves those meanwhile is in the archive by then.
 * They never change once they have their name.
 */
export function archiveFiles(journal: string, fromDay = ''): string[] {
  return listDirectory(archiveDirectory(journal), "read the journal's archive")
    .map((name) => ({ name, match: /^(\d{4}-\d{2}-\d{2}|undated)\.(\d{1,9})\.jsonl$/.exec(name) }))
    .filter(({ match }) => match !== null && (match[1] === 'undated' || match[1]! >= fromDay))
    .map(({ name, match }) => ({ path: join(archiveDirectory(journal), name), day: match![1]!, generation: Number(match![2]) }))
    .sort((a, b) => (a.day === b.day ? a.generation - b.generation : a.day < b.day ? -1 : 1))
    .map(({ path }) => path);
}

/** Files opened for reading, those missing left out. */
export function openFiles(paths: readonly string[]): OpenedFile[] {
  const opened: OpenedFile[] = [];
  try {
    for (const path of paths) {
      const fd = openForReading(path);
      if (fd !== undefined) opened.push({ path, fd });
    }
  } catch (error) {
    closeAll(opened);
    throw error;
  }
  return opened;
}

/**
 * Every file of the journal, opened, in reading order: the archive (all of it, or the days from
 * `fromDay`), then the live files. What reads the whole journal (history, `ledger import`)
 * reads these, not J alone, once `ledger compact` has run.
 */
export function openJournalFiles(journal: string, fromDay?: string): OpenedFile[] {
  const live = openLiveFiles(journal);
  try {
    return [...openFiles(archiveFiles(journal, fromDay)), ...live];
  } catch (error) {
    closeAll(live);
    throw error;
  }
}
