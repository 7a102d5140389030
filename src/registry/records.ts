import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { notUtf8, type TextPosition } from '../not-utf8.js';
import { longPassChunkBytes } from '../text-lines.js';
import type { RegistryLayout } from './layout.js';

/** Records (arrays of cells) and the line each ends on, from 1. */
export interface RecordBatch {
  records: string[][];
  lines: number[];
}

// A registry's records with the line each ends on, in batches. While no quote or lone "\r" has been seen, a line
// is its record, split at the delimiter by hand (docs/performance.md, the registry row); from then on the rest
// goes to csv-parse with the same settings, its line numbers carrying on.
export async function* registryRecords(path: string, layout: RegistryLayout): AsyncGenerator<RecordBatch> {
  const chunks = createReadStream(path, { highWaterMark: longPassChunkBytes })[
    Symbol.asyncIterator
  ]() as AsyncIterator<Buffer>;
  // A TextDecoder drops a UTF-8 byte order mark, as csv-parse's `bom` would. It is fatal: a byte
  // with no character is refused (RegistryNotEncodedError), never read as U+FFFD.
  const decoder = new TextDecoder(layout.encoding, { fatal: true });
  let linesBefore = 0;
  let toSkip = layout.skipLines;
  let text = '';
  try {
    for (;;) {
      const next = await chunks.next();
      text += next.done ? decoder.decode() : decoder.decode(next.value, { stream: true });
      const end = next.done ? text.length : text.lastIndexOf('\n') + 1;
      const complete = text.slice(0, end);
      if ((layout.quote !== false && complete.includes(layout.quote)) || /\r(?!\n)/.test(complete)) {
        yield* parsedRecords(text, chunks, decoder, layout, { linesBefore, toSkip }, next.done === true);
        return;
      }
      text = text.slice(end);
      const batch: RecordBatch = { records: [], lines: [] };
      const lines = complete.split('\n');
      // What follows the last "\n" is no line (the end of the file, or "" when it ends in one).
      if (complete === '' || complete.endsWith('\n')) lines.pop();
      for (const line of lines) {
        linesBefore++;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        const cells = (line.endsWith('\r') ? line.slice(0, -1) : line).split(layout.delimiter);
        if (cells.length === 1 && cells[0] === '') continue;
        batch.records.push(cells);
        batch.lines.push(linesBefore);
      }
      if (batch.records.length > 0) yield batch;
      if (next.done) return;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_ENCODING_INVALID_ENCODED_DATA') throw error;
    const at = layout.encoding === 'utf-8' ? await firstNotUtf8(path) : undefined;
    throw new RegistryNotEncodedError(layout.encoding, at);
  } finally {
    await chunks.return?.();
  }
}

/** A registry with bytes that have no character in its encoding; where, for UTF-8 (the line, and the character in it). */
export class RegistryNotEncodedError extends Error {
  override name = 'RegistryNotEncodedError';
  constructor(
    readonly encoding: string,
    readonly at: { line: number; column: number; byte: number } | undefined,
  ) {
    super(`the registry is not ${encoding}`);
  }
}

// The first byte of `path` that is not UTF-8, and where (not-utf8.ts), read in pieces each ending after its
// last ASCII byte but "\r", so no character and no "\r\n" is cut in two.
async function firstNotUtf8(path: string): Promise<{ line: number; column: number; byte: number } | undefined> {
  const at: TextPosition = { line: 1, column: 1 };
  let held: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: longPassChunkBytes }) as AsyncIterable<Buffer>) {
    const bytes = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
    let end = bytes.length;
    while (end > 0 && (bytes[end - 1]! >= 0x80 || bytes[end - 1] === 0x0d)) end--;
    const [found] = notUtf8(bytes.subarray(0, end), at);
    if (found !== undefined) return found;
    held = bytes.subarray(end);
  }
  return notUtf8(held, at)[0];
}

/** The rest of the registry, from `text` (its first unread line) on, through csv-parse. */
async function* parsedRecords(
  text: string,
  chunks: AsyncIterator<Buffer>,
  decoder: InstanceType<typeof TextDecoder>,
  layout: RegistryLayout,
  { linesBefore, toSkip }: { linesBefore: number; toSkip: number },
  done: boolean,
): AsyncGenerator<RecordBatch> {
  const parser = parse({
    delimiter: layout.delimiter,
    quote: layout.quote === false ? null : layout.quote,
    relax_column_count: true,
    skip_empty_lines: true,
    from_line: toSkip + 1,
    // The line each record ends on, as its last cell (taken off below): `info: true` would copy the whole info object per record.
    on_record: (record: string[], context) => (record.push(String(context.lines + linesBefore)), record),
  });
  const rest = Readable.from(
    (async function* () {
      yield text;
      if (done) return;
      for (let next = await chunks.next(); !next.done; next = await chunks.next())
        yield decoder.decode(next.value, { stream: true });
      yield decoder.decode();
    })(),
  );
  rest.on('error', (error) => parser.destroy(error));
  rest.pipe(parser);
  try {
    for await (const record of parser as AsyncIterable<string[]>)
      yield { lines: [Number(record.pop())], records: [record] };
  } catch (error) {
    // Its lines count from where it took over; so do the ones its messages name.
    const failure = error as CsvError & { lines?: number };
    if (typeof failure.lines === 'number') failure.lines += linesBefore;
    if (linesBefore > 0)
      failure.message = failure.message.replace(
        /\bline (\d+)/g,
        (_, line: string) => `line ${Number(line) + linesBefore}`,
      );
    throw error;
  } finally {
    rest.destroy();
  }
}
