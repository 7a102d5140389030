import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { publish, syncDirectory, writeAll } from '../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';

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
 *   names) that count, fixed by the first to look into the cut (cutLength below), kept for good;
 * - `J.damaged`: the lines that were not records, moved out once;
 * - `J.tmp-<id>`: a compaction's work in progress, never read.
 * The live records, those of transactions that may still be open, are read in the order
 * J.open-<n>, J.cut-<n+1> (up to its fixed length), J; the archive holds only closed ones,
 * older than all of them.
 */

export const openRecordsPath = (journal: string, generation: number) => `${journal}.open-${generation}`;
export const cutDirectory = (journal: string, generation: number) => `${journal}.cut-${generation}`;
export const segmentPath = (journal: string, generation: number, id: string) => join(cutDirectory(journal, generation), id, 'journal');
export const archiveDirectory = (journal: string) => `${journal}.archive`;
export const archivePath = (journal: string, day: string, generation: number) => join(archiveDirectory(journal), `${day}.${generation}.jsonl`);
export const damagedPath = (journal: string) => `${journal}.damaged`;
export const temporaryPath = (journal: string, id: string) => `${journal}.tmp-${id}`;
const cutLengthPath = (journal: string, generation: number, inode: number) => join(archiveDirectory(journal), `cut-${generation}.${inode}.length`);
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
    for (const holder of cut.holders) if (holder.cut) files.push({ path: segmentPath(journal, cut.generation, holder.id), cut: cut.generation });
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
  throw new LocalStorageError('read the journal', journal, new Error('its files kept changing while they were opened (compactions running back to back?)'));
}

/** The live files, opened as at one moment (openLiveSet). */
export function openLiveFiles(journal: string): OpenedFile[] {
  return openLiveSet(journal).files;
}

// ---------------------------------------------------------------- the length of a cut

/** How long an unfinished last line of a cut may take to be finished by its writer. */
const lastLinePatienceMs = 100;

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function readLength(path: string): number | undefined {
  try {
    const text = readFileSync(path, 'latin1');
    if (/^\d+\n$/.test(text)) return Number(text.trim());
    throw new Error(`${path} holds no length`);
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function endsLine(fd: number, length: number): boolean {
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, length - 1);
  return last[0] === 0x0a;
}

/**
 * The bytes of cut n (open as `fd`) that count: what every compaction of it reads and sorts,
 * what readers read of it, and the line a writer wrote into it past them is written again to
 * J (writer.ts). Fixed once, by the first to look into the cut (a compaction, a reader, or a
 * writer that finds its file cut), at the cut's size then: link(2) keeps the first length
 * given the name, and everyone uses that one. So no line anyone has read in the cut is ever
 * written again elsewhere, and no line past the length is ever read in the cut.
 *
 * A last line without its newline may be a write in progress: it is given a moment to end; one
 * that does not is a torn line, moved to J.damaged. Kept in the archive (never removed), so a
 * writer paused since before the cut was compacted and removed still finds it.
 */
export function cutLength(journal: string, generation: number, fd: number): number {
  const path = cutLengthPath(journal, generation, fstatSync(fd).ino);
  const recorded = readLength(path);
  if (recorded !== undefined) return recorded;
  let length = fstatSync(fd).size;
  for (let waited = 0; waited < lastLinePatienceMs && length > 0 && !endsLine(fd, length); waited += 10) {
    sleepSync(10);
    length = fstatSync(fd).size;
  }
  if (!existsSync(archiveDirectory(journal))) {
    mkdirSync(archiveDirectory(journal), { recursive: true, mode: 0o700 });
    syncDirectory(dirname(journal));
  }
  const aside = temporaryPath(journal, `${generation}-${randomId()}`);
  try {
    const out = openSync(aside, 'wx', 0o600);
    try {
      writeAll(out, Buffer.from(`${length}\n`));
      fsyncSync(out);
    } finally {
      closeSync(out);
    }
    publish(aside, path);
    syncDirectory(archiveDirectory(journal));
  } catch (error) {
    // The file aside removed by a compaction that found cut n compacted: its length was fixed before.
    if (errnoCodeOf(error) !== 'ENOENT' || readLength(path) === undefined) throw error;
  }
  return readLength(path)!;
}

/**
 * cutLength for a reader: one that cannot fix it (no right to write beside the journal, a
 * read-only file system) while a compaction has not yet is a local failure (exit 6), never an
 * internal error; it must not read the cut to its end instead (a line past the length is
 * written again to the journal by its writer).
 */
function readerCutLength(journal: string, generation: number, fd: number): number {
  try {
    return cutLength(journal, generation, fd);
  } catch (error) {
    if (errnoCodeOf(error) === undefined) throw error;
    throw new LocalStorageError('read the journal', journal, error, {
      consequence: 'a compaction is under way and this user cannot write beside the journal to read it safely; nothing was sent',
      hint: 'run it again in a moment, or as the user that owns the journal',
    });
  }
}

/**
 * The fixed length of the cut that is the file open as `fd`, for a writer that found the
 * journal renamed away from under it: fixed now if no one did yet (cutLength). Undefined when
 * the file is no cut (the journal removed by hand?). Once cut n is compacted and removed, its
 * length is still in the archive: the highest cut with the file's inode number is its own (the
 * file is open, so its inode number is not yet free to be given to another).
 */
export function lengthOfCutHolding(journal: string, fd: number): number | undefined {
  const { dev, ino } = fstatSync(fd);
  for (const cut of journalState(journal).cuts) {
    for (const holder of cut.holders) {
      if (!holder.cut) continue;
      try {
        const named = statSync(segmentPath(journal, cut.generation, holder.id));
        if (named.dev === dev && named.ino === ino) return cutLength(journal, cut.generation, fd);
      } catch (error) {
        if (errnoCodeOf(error) !== 'ENOENT') throw error;
      }
    }
  }
  const pattern = new RegExp(`^cut-(\\d{1,9})\\.${ino}\\.length$`);
  const generations = listDirectory(archiveDirectory(journal), "read the journal's archive")
    .map((name) => pattern.exec(name))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]));
  if (generations.length === 0) return undefined;
  return readLength(cutLengthPath(journal, Math.max(...generations), ino));
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
    .filter(({ match }) => match !== null && (match[1] === 'undated' || match[1]! >= fromDay) && Number(match[2]) <= throughCut)
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
