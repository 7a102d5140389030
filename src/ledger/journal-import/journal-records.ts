import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import { ShapeError } from '../../protocol/json-shape.js';
import { type JournalRecord, readRecord } from '../record-format.js';
import { type JournalFile, journalFiles } from './journal-files.js';

export { isLegacyJournal } from './journal-files.js';

/** A read the system refused (EACCES, EIO...) as a LocalStorageError naming the file; anything else as it is. */
const unreadable = (path: string, error: unknown): unknown =>
  error instanceof LocalStorageError || errnoCodeOf(error) === undefined
    ? error
    : new LocalStorageError('read the journal', path, error);

/** The record on a journal line, or what is wrong with it. */
function recordOn(line: string): JournalRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  try {
    return readRecord(value);
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
}

// Every record of an earlier version's journal (journal-files.ts says which files, in which order), a line at
// a time, for `ledger import`. A line torn by a crash mid-write is skipped with a warning.
export async function* legacyJournalRecords(
  journal: string,
  warn: (message: string) => void,
): AsyncGenerator<JournalRecord> {
  let files: JournalFile[];
  try {
    files = journalFiles(journal);
  } catch (error) {
    throw unreadable(journal, error);
  }
  for (const file of files) {
    if (file.end === 0) continue;
    // createReadStream's `end` is the last byte read, included.
    const stream = createReadStream(file.path, file.end === undefined ? {} : { end: file.end - 1 });
    const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
    let lineNumber = 0;
    try {
      for await (const line of lines) {
        lineNumber++;
        if (line.trim() === '') continue;
        const record = recordOn(line);
        if (typeof record === 'string')
          warn(`journal ${file.path} line ${lineNumber} is damaged (a crash mid-write?): ${record}; skipped`);
        else yield record;
      }
    } catch (error) {
      throw unreadable(file.path, error);
    } finally {
      lines.close();
      stream.destroy();
    }
  }
}
