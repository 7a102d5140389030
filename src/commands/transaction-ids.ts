import { createReadStream } from 'node:fs';
import { errnoCodeOf, UsageError } from '../errors.js';
import { isLongId, parseTransactionId } from '../protocol/transaction-id.js';
import { t } from '../run-scope.js';
import { linesOf } from '../text-lines.js';

export type IdEntry = { id: string } | { invalid: string };

/** The ids to look up: those on the command line (checked up front: a typo sends nothing),
 * then those in --from-file, one a line, read as a stream. Blank lines and `#` comments
 * are skipped; a bad line is reported in its place and does not stop the batch. */
export async function* transactionIdsFrom(
  positional: readonly string[],
  fromFile: string | undefined,
  stdin: () => NodeJS.ReadableStream,
): AsyncGenerator<IdEntry> {
  const checked = positional.map((id) => parseTransactionId(id));
  yield* checked.map((id) => ({ id }));
  if (fromFile === undefined) return;
  const unreadable = (error: unknown) => {
    const code = errnoCodeOf(error);
    const reason = code ? t().errors.fileReason(code) : (error as Error).message;
    return new UsageError(t().commands.cannotReadFromFile(fromFile, reason));
  };
  let input: NodeJS.ReadableStream;
  if (fromFile === '-') input = stdin();
  else {
    // Small reads: a chunk's ids wait in memory until each is looked up, and large chunks
    // lived long enough to grow the heap.
    const stream = createReadStream(fromFile, { encoding: 'utf8', highWaterMark: 4096 });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', (error) => reject(unreadable(error)));
    });
    input = stream;
  }
  let lineNumber = 0;
  try {
    for await (const lines of linesOf(input as AsyncIterable<string | Buffer>, 'utf8')) {
      for (const rawLine of lines) {
        lineNumber++;
        const line = rawLine.trim();
        if (line === '' || line.startsWith('#')) continue;
        if (isLongId(line)) yield { id: line };
        else
          yield {
            invalid: `${fromFile === '-' ? 'stdin' : fromFile} line ${lineNumber}: ${JSON.stringify(line)} is not a transaction id`,
          };
      }
    }
  } catch (error) {
    // A directory opens, and fails only at its first read (EISDIR).
    if (errnoCodeOf(error) !== undefined) throw unreadable(error);
    throw error;
  }
}
