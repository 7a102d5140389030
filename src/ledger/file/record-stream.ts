import type { JournalRecord } from '../records.js';
import { OwnLineScanner, recordOf } from './line-format.js';
import { closeAll, openJournalFiles } from './open-for-reading.js';
import { damagedLineWarning, type JournalWarning, journalLines, recordOn } from './reader.js';

/**
 * A journal's records one at a time, read whole, for a consumer that awaits between them
 * (`ledger import` writing each to a database). A damaged line is skipped with a warning, as
 * everywhere the journal is read.
 */
export async function* journalRecords(path: string, warn: JournalWarning): AsyncGenerator<JournalRecord> {
  const ownLines = new OwnLineScanner();
  // A compacted journal is its archive, its open records and J (journal-files.ts).
  const files = openJournalFiles(path);
  try {
    for (const file of files) {
      let lineNumber = 0;
      for await (const { lines } of journalLines(file.path, {
        fd: file.fd,
        ...(file.end === undefined ? {} : { end: file.end }),
      })) {
        for (const line of lines) {
          lineNumber++;
          if (line === '') continue;
          const record = recordOn(line, ownLines);
          if (typeof record === 'string') warn(damagedLineWarning(file.path, lineNumber, record));
          else yield recordOf(record);
        }
      }
    }
  } finally {
    closeAll(files);
  }
}
