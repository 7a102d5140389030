import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import type { StorageAction } from '../../i18n/en.js';

// A journal `J` of earlier versions, compacted or not, as its files in the order written (docs/reliability.md
// of 42b0cb5, "Compacting the journal"); read as they are, none is written any more.

/** A file to read, up to `end` bytes when only a fixed length of it counts. */
export interface JournalFile {
  path: string;
  end?: number;
}

function namesIn(directory: string, what: StorageAction): string[] {
  try {
    return readdirSync(directory).sort();
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT' || errnoCodeOf(error) === 'ENOTDIR') return [];
    throw new LocalStorageError(what, directory, error);
  }
}

/** The numbers n of the entries `<J>.<word>-<n>` beside J, ascending. */
function generationsBeside(journal: string, word: 'open' | 'cut'): number[] {
  const prefix = `${basename(journal)}.${word}-`;
  return namesIn(dirname(journal), "read the journal's directory")
    .filter((name) => name.startsWith(prefix) && /^\d{1,9}$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** `J.archive/<day>.<n>.jsonl` by day, then n; only cuts n done (a later one's repeats its cut). */
function archiveFiles(journal: string, throughCut: number): JournalFile[] {
  const directory = `${journal}.archive`;
  return namesIn(directory, "read the journal's archive")
    .map((name) => ({ name, match: /^(\d{4}-\d{2}-\d{2}|undated)\.(\d{1,9})\.jsonl$/.exec(name) }))
    .filter(({ match }) => match !== null && Number(match[2]) <= throughCut)
    .map(({ name, match }) => ({ path: join(directory, name), day: match![1]!, cut: Number(match![2]) }))
    .sort((a, b) => (a.day === b.day ? a.cut - b.cut : a.day < b.day ? -1 : 1))
    .map(({ path }) => ({ path }));
}

// The bytes of cut n that count: its length file for the cut's inode, else its only length file (a copied
// journal has other inodes); without one, all of it.
function cutEnd(journal: string, generation: number, path: string): number | undefined {
  const prefix = `cut-${generation}.`;
  const lengths = namesIn(`${journal}.archive`, "read the journal's archive").filter(
    (name) => name.startsWith(prefix) && name.endsWith('.length'),
  );
  const own = `${prefix}${statSync(path).ino}.length`;
  const chosen = lengths.includes(own) ? own : lengths.length === 1 ? lengths[0]! : undefined;
  if (chosen === undefined) return undefined;
  const text = readFileSync(join(`${journal}.archive`, chosen), 'latin1');
  return /^\d+\n$/.test(text) ? Number(text.trim()) : undefined;
}

/** The archive, the highest `J.open-<n>`, each `J.cut-<m>/<id>/journal` above n (a killed compaction's), then J. */
export function journalFiles(journal: string): JournalFile[] {
  const current = generationsBeside(journal, 'open').at(-1) ?? 0;
  const files = archiveFiles(journal, current);
  if (current > 0) files.push({ path: `${journal}.open-${current}` });
  for (const generation of generationsBeside(journal, 'cut')) {
    if (generation <= current) continue;
    for (const id of namesIn(`${journal}.cut-${generation}`, 'read the journal cut')) {
      const path = join(`${journal}.cut-${generation}`, id, 'journal');
      if (!existsSync(path)) continue;
      const end = cutEnd(journal, generation, path);
      files.push(end === undefined ? { path } : { path, end });
    }
  }
  if (existsSync(journal)) files.push({ path: journal });
  return files;
}

/** Whether the file's first byte that is not white space is `{` (a SQLite database starts "SQLite format 3"). */
function startsWithBrace(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const buffer = Buffer.alloc(4096);
    for (let position = 0; position < 1 << 20; ) {
      const length = readSync(fd, buffer, 0, buffer.length, position);
      if (length === 0) return false;
      for (let i = 0; i < length; i++) {
        const byte = buffer[i]!;
        if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte === 0x7b;
      }
      position += length;
    }
    return false;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

// Whether `path` looks like an earlier version's journal: it starts with `{`, or `ledger compact` left its
// archive, open records or a cut beside it.
export function isLegacyJournal(path: string): boolean {
  if (startsWithBrace(path)) return true;
  try {
    return (
      existsSync(`${path}.archive`) ||
      generationsBeside(path, 'open').length > 0 ||
      generationsBeside(path, 'cut').length > 0
    );
  } catch {
    return false;
  }
}
