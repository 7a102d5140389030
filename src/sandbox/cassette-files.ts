import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { type Cassette, CassetteError, cassetteBytesAtMost, parseCassette, sequenceOf } from '../protocol/cassette.js';

/** The cassettes of a directory, and the files cut short while written (named, then passed over). */
export interface LoadedCassettes {
  cassettes: Cassette[];
  /** Each as `<file>: <what>`, in the order recorded. */
  cutShort: string[];
}

// A directory's cassettes in recording order, each checked whole (protocol/cassette.ts). One cut short is named
// and skipped; any other file named as a cassette that is not one refuses the directory (CassetteError).
export function loadCassettes(directory: string): LoadedCassettes {
  const loaded: LoadedCassettes = { cassettes: [], cutShort: [] };
  const names = readdirSync(directory)
    .map((name) => ({ name, sequence: sequenceOf(name) }))
    .filter((file): file is { name: string; sequence: number } => file.sequence !== undefined)
    .sort((a, b) => a.sequence - b.sequence);
  for (const { name } of names) {
    try {
      loaded.cassettes.push(parseCassette(readCassetteFile(directory, name), name));
    } catch (error) {
      if (!(error instanceof CassetteError && error.cutShort)) throw error;
      loaded.cutShort.push(error.message);
    }
  }
  return loaded;
}

// O_NOFOLLOW: a name that is a symbolic link fails to open (ELOOP), so what is read is the
// directory's own file, never one a link points at. O_NONBLOCK: a FIFO opens at once, to be refused.
const readOnly = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

// A cassette's text: a regular file of the directory (not a link or device), at most cassetteBytesAtMost,
// judged on the file opened (fstat), not its name.
function readCassetteFile(directory: string, name: string): string {
  let fd: number;
  try {
    fd = openSync(join(directory, name), readOnly);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new CassetteError(
        name,
        'a symbolic link: expected a regular file of the directory (links are not followed)',
      );
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new CassetteError(name, 'not a regular file: expected a cassette file');
    if (stat.size > cassetteBytesAtMost)
      throw new CassetteError(
        name,
        `larger than 8 MiB (${cassetteBytesAtMost} bytes): expected a cassette, at most that`,
      );
    // One byte past its size tells a file that grew since fstat: never read past the bound.
    const bytes = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, bytes, length, bytes.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > stat.size) throw new CassetteError(name, 'changed while read: expected a file nothing writes');
    }
    return bytes.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
