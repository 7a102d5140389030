import { createReadStream, type ReadStream } from 'node:fs';
import { errnoCodeOf, LocalStorageError } from '../errors.js';
import { ShapeError } from '../protocol/json-shape.js';
import { linesOf } from '../text-lines.js';
import { OwnLineScanner, type ScannedRecord, scanRecord, utf8OfByteText } from './line-format.js';
import { readRecord } from './record-format.js';

export type JournalWarning = (message: string) => void;

/**
 * Streams the journal's records in order, each to `visit` (which may return false to stop).
 * A missing journal is an empty one. A line that is not a record (a torn last line after a
 * crash) is skipped with a warning, never fatal. A journal that cannot be read (EACCES, EISDIR,
 * EIO) is a LocalStorageError naming the path and the errno code.
 *
 * The file is read as byte text (latin1: one character per byte, see line-format.ts). Lines in
 * the writer's own form are scanned without decoding or JSON.parse, and the ledger reads a
 * whole record only for what it keeps; any other line is decoded, parsed and read by
 * readRecord (record-format.ts), whose refusal the warning quotes.
 */
export async function scanJournal(path: string, warn: JournalWarning, visit: (record: ScannedRecord) => boolean | void): Promise<void> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(unreadable(path, error))));
  });
  if (!opened) return;
  const ownLines = new OwnLineScanner();
  let lineNumber = 0;
  for await (const lines of readLines(stream, path)) {
    for (const line of lines) {
      lineNumber++;
      if (line === '') continue;
      const record = recordOn(line, ownLines);
      if (typeof record === 'string') warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?): ${record}; skipped`);
      else if (visit(record) === false) return;
    }
  }
}

/** The file's lines in batches; a read that fails is an error naming the journal. */
async function* readLines(stream: ReadStream, path: string): AsyncGenerator<readonly string[]> {
  try {
    yield* linesOf(stream as AsyncIterable<Buffer>, 'latin1');
  } catch (error) {
    throw unreadable(path, error);
  } finally {
    stream.destroy();
  }
}

/** The record on a line, or what is wrong with it. */
function recordOn(line: string, ownLines: OwnLineScanner): ScannedRecord | string {
  const own = ownLines.scan(line);
  if (own) return own;
  let value: unknown;
  try {
    value = JSON.parse(utf8OfByteText(line));
  } catch {
    return 'not JSON';
  }
  try {
    return scanRecord(readRecord(value));
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
}

/** A read that failed in the system (EISDIR, EIO...) as a LocalStorageError; anything else as it is. */
function unreadable(path: string, error: unknown): unknown {
  return errnoCodeOf(error) === undefined ? error : new LocalStorageError('read the journal', path, error);
}
