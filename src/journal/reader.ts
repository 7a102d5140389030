import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { journalRecordSchema, type JournalRecord } from './records.js';

export type JournalWarning = (message: string) => void;

/**
 * Streams the journal's records in order. A missing journal is an empty one. A line that
 * is not a record (a torn last line after a crash) is skipped with a warning, never fatal.
 */
export async function* readJournal(path: string, warn: JournalWarning): AsyncGenerator<JournalRecord> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
  });
  if (!opened) return;
  let lineNumber = 0;
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    lineNumber++;
    if (line === '') continue;
    let parsed;
    try {
      parsed = journalRecordSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) yield parsed.data;
    else warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?); skipped`);
  }
}
