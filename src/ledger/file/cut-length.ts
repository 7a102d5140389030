import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { publish, syncDirectory, writeAll } from '../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import {
  archiveDirectory,
  cutLengthPath,
  journalState,
  listDirectory,
  randomId,
  segmentPath,
  temporaryPath,
} from './journal-files.js';

/**
 * The length of a cut (journal-files.ts names the files): the bytes of `J.cut-<n>` that count,
 * fixed once in `J.archive/cut-<n>.<inode>.length` by the first to look into the cut, whether
 * a compaction, a reader or a writer.
 */

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
export function readerCutLength(journal: string, generation: number, fd: number): number {
  try {
    return cutLength(journal, generation, fd);
  } catch (error) {
    if (errnoCodeOf(error) === undefined) throw error;
    throw new LocalStorageError('read the journal', journal, error, {
      consequence:
        'a compaction is under way and this user cannot write beside the journal to read it safely; nothing was sent',
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
