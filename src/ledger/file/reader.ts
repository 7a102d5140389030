import { read, readSync } from 'node:fs';
import { promisify } from 'node:util';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import { ShapeError } from '../../protocol/json-shape.js';
import { type LineBatch, lineBatchesOf } from '../../text-lines.js';
import { readRecord } from '../record-format.js';
import { OwnLineScanner, type ScannedRecord, scanRecord, utf8OfByteText } from './line-format.js';
import { closeAll, type OpenedFile } from './open-for-reading.js';

export type JournalWarning = (message: string) => void;

/** Where a line is: its number in its file (from 1), its first byte, and its length in bytes without its break. */
export interface LinePosition {
  line: number;
  offset: number;
  length: number;
}

interface ReadRange {
  /** The file, open (open-for-reading.ts opens a journal's files together; a second pass reads the same). */
  fd: number;
  /** Where to stop (a byte offset, excluded). */
  end?: number;
  /** How much to read at a time from `fd` (history's size unless told). */
  chunkBytes?: number;
  /**
   * Read in this thread (readSync) rather than in libuv's pool: for a pass that has nothing to
   * do meanwhile, where each chunk's trip through the pool costs more than the read.
   */
  blocking?: boolean;
}

/**
 * Streams the records of a journal file, open as `range.fd`, in order, each to `visit` (which
 * may return false to stop). A line that is not a record (a torn last line after a crash) is
 * skipped with a warning, never fatal. A file that cannot be read (EISDIR, EIO) is a
 * LocalStorageError naming the path and the errno code.
 *
 * The file is read as byte text (latin1: one character per byte, see line-format.ts). Lines in
 * the writer's own form are scanned without decoding or JSON.parse, and the ledger reads a
 * whole record only for what it keeps; any other line is decoded, parsed and read by
 * readRecord (record-format.ts), whose refusal the warning quotes.
 */
export async function scanJournal(
  path: string,
  warn: JournalWarning,
  visit: (record: ScannedRecord, at: LinePosition) => boolean | void,
  range: ReadRange,
): Promise<number> {
  const ownLines = new OwnLineScanner();
  const at: LinePosition = { line: 0, offset: 0, length: 0 };
  let next = 0;
  for await (const { lines, breaks } of journalLines(path, range)) {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      at.line++;
      at.offset = next;
      at.length = line.length;
      next += line.length + (breaks === undefined ? 1 : breaks[i]!);
      if (line === '') continue;
      const record = recordOn(line, ownLines);
      if (typeof record === 'string') warn(damagedLineWarning(path, at.line, record));
      else if (visit(record, at) === false) return next;
    }
  }
  return next;
}

/**
 * Reads the files in order as one journal (each to its end as opened), until `visit` returns
 * false, then closes them all.
 */
export async function scanFiles(
  files: readonly OpenedFile[],
  warn: JournalWarning,
  how: Pick<ReadRange, 'chunkBytes' | 'blocking'>,
  visit: (record: ScannedRecord) => boolean | void,
): Promise<void> {
  let stopped = false;
  try {
    for (const { path, fd, end } of files) {
      await scanJournal(
        path,
        warn,
        (record) => {
          if (visit(record) !== false) return true;
          stopped = true;
          return false;
        },
        { fd, ...how, ...(end === undefined ? {} : { end }) },
      );
      if (stopped) return;
    }
  } finally {
    closeAll(files);
  }
}

/**
 * The lines of one of a journal's files, open as `range.fd`, as byte text, in batches. A
 * journal that `ledger compact` has run on is several files: open-for-reading.ts opens them.
 */
export async function* journalLines(path: string, range: ReadRange): AsyncGenerator<LineBatch> {
  try {
    yield* lineBatchesOf(chunksOf(range.fd, range.end, range.chunkBytes, range.blocking), 'latin1');
  } catch (error) {
    throw unreadable(path, error);
  }
}

const readAt = promisify(read);

/** An open file's bytes from its start up to `end` (a read stream would close the descriptor when done). */
async function* chunksOf(
  fd: number,
  end = Number.POSITIVE_INFINITY,
  size = chunkBytes,
  blocking = false,
): AsyncGenerator<Buffer> {
  let position = 0;
  // A chunk is decoded (lineBatchesOf) before the next is read, in this thread or in libuv's pool:
  // one buffer serves them all. A buffer a chunk, given back only when V8 next collected it, left
  // the C heap fragmented: a few MB more RSS over a journal of 1,000,000 payments.
  const buffer = Buffer.allocUnsafe(Math.min(size, end));
  while (position < end) {
    const length = Math.min(size, end - position);
    const bytesRead = blocking
      ? readSync(fd, buffer, 0, length, position)
      : (await readAt(fd, buffer, 0, length, position)).bytesRead;
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

export const damagedLineWarning = (path: string, line: number, reason: string) =>
  `journal ${path} line ${line} is damaged (a crash mid-write?): ${reason}; skipped`;

// History's reads stay below V8's large-object size, so that a read chunk's text dies young;
// reconcile, the replay guard and compaction read more at once, reconcile --registry's long
// pass less (text-lines.ts longPassChunkBytes; docs/performance.md).
const chunkBytes = 64 * 1024;
export const streamChunkBytes = 256 * 1024;

/** The record on a line of byte text, or what is wrong with it. */
export function recordOn(line: string, ownLines: OwnLineScanner): ScannedRecord | string {
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
