import { closeSync, fstatSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import { readerCutLength } from './cut-length.js';
import {
  archiveDirectory,
  currentGeneration,
  type JournalState,
  journalState,
  listDirectory,
  openRecordsPath,
  segmentPath,
} from './journal-files.js';

/**
 * A journal's files (journal-files.ts names them) opened for reading: the live ones as at one
 * moment while compactions move records between them, the archive's, or all of them in
 * reading order. What reads the journal reads these.
 */

/** A live file: the cut's number for a cut (read up to its fixed length). */
interface LiveFile {
  path: string;
  cut: number | undefined;
}

/** The live files in reading order, without J: the current open records, then any cut not yet compacted. */
function liveFilesOf(journal: string, state: JournalState): LiveFile[] {
  const generation = currentGeneration(state);
  const files: LiveFile[] = generation > 0 ? [{ path: openRecordsPath(journal, generation), cut: undefined }] : [];
  for (const cut of state.cuts) {
    if (cut.generation <= generation) continue;
    for (const holder of cut.holders)
      if (holder.cut) files.push({ path: segmentPath(journal, cut.generation, holder.id), cut: cut.generation });
  }
  return files;
}

/** A file of the journal, opened for reading, up to `end` (a byte offset) when it has one. */
export interface OpenedFile {
  path: string;
  fd: number;
  end?: number;
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

/** The live files, opened as at one moment, and the generation of the open records among them (0: none). */
interface LiveSet {
  files: OpenedFile[];
  generation: number;
}

/**
 * The live files (the current open records, a cut not yet compacted, J), opened as they were at
 * one moment. A compaction may move records between them while they are opened: the files are
 * listed, opened, and listed again, and opened again if anything changed in between. Once
 * open, a file's records stay readable whatever is renamed or removed.
 *
 * Each is read only up to what it held at that moment, so that a line read here is never
 * written again elsewhere (writer.ts): J up to its size when it was seen to be J (a line written
 * to it later may land after a compaction renamed it), a cut up to its fixed length, which is
 * fixed here if no one did yet (a line past it is written again to J by its writer).
 */
function openLiveSet(journal: string): LiveSet {
  for (let attempt = 0; attempt < tries; attempt++) {
    const state = journalState(journal);
    const before = liveFilesOf(journal, state);
    const opened: OpenedFile[] = [];
    let complete = true;
    try {
      for (const { path } of before) {
        const fd = openForReading(path);
        if (fd === undefined) {
          complete = false;
          break;
        }
        opened.push({ path, fd });
      }
      if (complete) {
        const fd = openForReading(journal);
        const { dev, ino, size } = fd === undefined ? { dev: 0, ino: 0, size: 0 } : fstatSync(fd);
        if (fd !== undefined) opened.push({ path: journal, fd, end: size });
        const after = liveFilesOf(journal, journalState(journal));
        const same = after.length === before.length && after.every((file, i) => file.path === before[i]!.path);
        if (same && identityOf(journal) === (fd === undefined ? 'none' : `${dev}:${ino}`)) {
          before.forEach(({ cut }, i) => {
            if (cut !== undefined) opened[i]!.end = readerCutLength(journal, cut, opened[i]!.fd);
          });
          return { files: opened, generation: currentGeneration(state) };
        }
      }
    } catch (error) {
      closeAll(opened);
      throw error;
    }
    closeAll(opened);
  }
  throw new LocalStorageError(
    'read the journal',
    journal,
    new Error('its files kept changing while they were opened (compactions running back to back?)'),
  );
}

/** The live files, opened as at one moment (openLiveSet). */
export function openLiveFiles(journal: string): OpenedFile[] {
  return openLiveSet(journal).files;
}

/**
 * The archive's files, oldest first (by day, then by cut): all of them, or those of
 * transactions last attempted on `fromDay` (a UTC YYYY-MM-DD) or later. List them after
 * opening the live files: a transaction that leaves those meanwhile is in the archive by then.
 * They never change once they have their name.
 */
export function archiveFiles(journal: string, fromDay = '', throughCut = Number.POSITIVE_INFINITY): string[] {
  return listDirectory(archiveDirectory(journal), "read the journal's archive")
    .map((name) => ({ name, match: /^(\d{4}-\d{2}-\d{2}|undated)\.(\d{1,9})\.jsonl$/.exec(name) }))
    .filter(
      ({ match }) =>
        match !== null && (match[1] === 'undated' || match[1]! >= fromDay) && Number(match[2]) <= throughCut,
    )
    .map(({ name, match }) => ({
      path: join(archiveDirectory(journal), name),
      day: match![1]!,
      generation: Number(match![2]),
    }))
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
 *
 * The archive is listed after the live files are opened, so a transaction that leaves them
 * meanwhile is found; but only the archive of the cuts compacted then: a later cut's archive
 * holds records the open live files hold too, and they would be read twice.
 */
export function openJournalFiles(journal: string, fromDay?: string): OpenedFile[] {
  const { files: live, generation } = openLiveSet(journal);
  try {
    return [...openFiles(archiveFiles(journal, fromDay, generation)), ...live];
  } catch (error) {
    closeAll(live);
    throw error;
  }
}
