import { createReadStream } from 'node:fs';
import { errnoCodeOf, LocalStorageError } from '../errors.js';
import { linesOf } from '../text-lines.js';
import { OwnLineScanner, scanRecord, textOf, type ScannedRecord } from './line-format.js';

export type JournalWarning = (message: string) => void;

type RecordSchemas = typeof import('./record-schemas.js');

/**
 * Streams the journal's records in order, each to `visit` (which may return false to stop).
 * A missing journal is an empty one. A line that is not a record (a torn last line after a
 * crash) is skipped with a warning, never fatal. A journal that cannot be read (EACCES, EISDIR,
 * EIO) is a LocalStorageError naming the path and the errno code.
 *
 * The file is read as byte text (latin1: one character per byte, see line-format.ts). Lines in
 * the writer's own format are scanned without decoding, JSON.parse or zod, and the ledger
 * reads a whole record only for what it keeps; any other line is decoded, parsed and checked
 * against the record schemas, loaded the first time such a line turns up.
 */
export async function scanJournal(path: string, warn: JournalWarning, visit: (record: ScannedRecord) => boolean | void): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(unreadable(path, error))));
  });
  if (!opened) return;
  let schemas: RecordSchemas | undefined;
  const ownLines = new OwnLineScanner();
  /** The record on a line; undefined if damaged; 'schemas' if the schemas must be loaded first. */
  const recordOn = (line: string): ScannedRecord | undefined | 'schemas' => {
    const own = ownLines.scan(line);
    if (own) return own;
    let value: unknown;
    try {
      value = JSON.parse(textOf(line));
    } catch {
      return undefined;
    }
    if (schemas === undefined) return 'schemas';
    const parsed = schemas.journalRecordSchema.safeParse(value);
    return parsed.success ? scanRecord(parsed.data) : undefined;
  };
  let lineNumber = 0;
  /** Hands each line's record to the visitor; false when the visitor is done. */
  const take = async (lines: readonly string[]): Promise<boolean> => {
    for (const line of lines) {
      lineNumber++;
      if (line === '') continue;
      let record = recordOn(line);
      if (record === 'schemas') {
        schemas = await import('./record-schemas.js');
        record = recordOn(line);
      }
      if (record === undefined || record === 'schemas') warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?); skipped`);
      else if (visit(record) === false) return false;
    }
    return true;
  };
  try {
    for await (const lines of linesOf(stream as AsyncIterable<Buffer>, 'latin1')) if (!(await take(lines))) return;
  } catch (error) {
    throw unreadable(path, error);
  } finally {
    stream.destroy();
  }
}

/** A read that failed in the system (EISDIR, EIO...) as a LocalStorageError; anything else as it is. */
function unreadable(path: string, error: unknown): unknown {
  return errnoCodeOf(error) === undefined ? error : new LocalStorageError('read the journal', path, error);
}
