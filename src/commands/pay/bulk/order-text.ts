import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { errnoCodeOf, UsageError } from '../../../errors.js';
import { notUtf8 } from '../../../not-utf8.js';
import type { BadRow } from '../../../render/bulk.js';
import type { CsvDelimiter, CsvLineEnd } from '../../../render/csv.js';
import { t } from '../../../run-scope.js';

/** How the order file is written, as --delimiter, --decimal-comma and --encoding give it (each may be left out). */
export interface OrderNotation {
  delimiter: CsvDelimiter | undefined;
  decimalComma: boolean;
  encoding: string | undefined;
}

// The input of `pay --from-file` as UTF-8 text read again by each step, a piece at a time: a file is never held
// whole; stdin, or a file with --encoding (decoded strictly), is held as UTF-8 bytes. Bytes that are not UTF-8
// are not guessed at: each such line is a problem by line and column (docs/commands.md "pay --from-file").
export interface OrderText {
  /** The text in pieces, each ending at a line end ("\n" is never a byte of a longer character). */
  pieces(): Generator<string>;
  /** No quote and no lone CR anywhere: each line is a record, split at its delimiter. */
  readonly plain: boolean;
  /** The file started with a UTF-8 byte order mark (dropped from the text). */
  readonly bom: boolean;
}

const startsWithBom = (bytes: Buffer) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

export async function orderText(
  path: string,
  stdin: () => NodeJS.ReadableStream,
  encoding?: string,
): Promise<{ text: OrderText; problems: BadRow[] }> {
  const utf8 = encoding === undefined || encoding === 'utf-8';
  if (path !== '-' && utf8) {
    const scan = scanFile(path);
    if (scan.utf8) return { text: { pieces: () => filePieces(path), plain: scan.plain, bom: scan.bom }, problems: [] };
  }
  const bytes = await bytesOf(path, stdin);
  if (!utf8) return decoded(bytes, encoding);
  if (isUtf8(bytes)) return { text: textOfBytes(bytes), problems: [] };
  const problems = notUtf8(bytes).map(({ line, column, byte }) => ({
    line,
    column: undefined,
    message: t().bulk.cell.notUtf8(`0x${byte.toString(16).toUpperCase().padStart(2, '0')}`, column),
  }));
  return { text: textOfBytes(Buffer.alloc(0)), problems };
}

/** The line end of the text's first line (CRLF when it has none, or a lone CR): its results file's. */
export function lineEndOf(text: OrderText): CsvLineEnd {
  for (const piece of text.pieces()) {
    const newline = piece.indexOf('\n');
    return newline !== -1 && piece[newline - 1] !== '\r' ? '\n' : '\r\n';
  }
  return '\r\n';
}

const textOfBytes = (bytes: Buffer): OrderText => ({
  pieces: () => textPieces(bytes),
  plain: bytes.indexOf(0x22) === -1 && !hasLoneCr(bytes),
  bom: startsWithBom(bytes),
});

/** Bytes in `encoding` as UTF-8 bytes; TextDecoder drops the encoding's own byte order mark. */
function decoded(bytes: Buffer, encoding: string): { text: OrderText; problems: BadRow[] } {
  try {
    return {
      text: textOfBytes(Buffer.from(new TextDecoder(encoding, { fatal: true }).decode(bytes), 'utf8')),
      problems: [],
    };
  } catch {
    return {
      text: textOfBytes(Buffer.alloc(0)),
      problems: [{ line: 1, column: undefined, message: t().sheet.notEncoded(encoding) }],
    };
  }
}

/** A CR not followed by LF: a line end of its own, which csv-parse knows and a split at "\n" does not. */
function hasLoneCr(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x0d); at !== -1; at = bytes.indexOf(0x0d, at + 1))
    if (bytes[at + 1] !== 0x0a) return true;
  return false;
}

/** One reading of a file before its rows are: whether it is all UTF-8, plain (hasLoneCr), and starts with a BOM. */
function scanFile(path: string): { utf8: boolean; plain: boolean; bom: boolean } {
  let plain = true;
  let bom: boolean | undefined;
  for (const chunk of fileChunks(path)) {
    bom ??= startsWithBom(chunk);
    if (!isUtf8(chunk)) return { utf8: false, plain, bom };
    plain &&= chunk.indexOf(0x22) === -1 && !hasLoneCr(chunk);
  }
  return { utf8: true, plain, bom: bom ?? false };
}

/** The text of a file scanned before: a file changed since (no longer UTF-8) is refused rather than read wrong. */
function* filePieces(path: string): Generator<string> {
  let first = true;
  for (const chunk of fileChunks(path)) {
    if (!isUtf8(chunk)) throw new UsageError(t().bulk.changedWhileRead(path));
    const bom = first && startsWithBom(chunk) ? 3 : 0;
    first = false;
    yield chunk.toString('utf8', bom);
  }
}

const pieceBytes = 1 << 20;

// A file in pieces, each ending after a "\n" (the last where the file ends), in one reused buffer: a piece is
// good until the next is asked for.
function* fileChunks(path: string): Generator<Buffer> {
  const fd = opened(path);
  try {
    let buffer = Buffer.allocUnsafeSlow(pieceBytes);
    let held = 0;
    for (;;) {
      if (held === buffer.length) {
        const bigger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(bigger, 0, 0, held);
        buffer = bigger;
      }
      const read = readPiece(path, fd, buffer, held);
      if (read === 0) {
        if (held > 0) yield buffer.subarray(0, held);
        return;
      }
      held += read;
      const newline = buffer.lastIndexOf(0x0a, held - 1);
      if (newline === -1) continue;
      yield buffer.subarray(0, newline + 1);
      buffer.copyWithin(0, newline + 1, held);
      held -= newline + 1;
    }
  } finally {
    closeSync(fd);
  }
}

const cannotRead = (path: string, error: unknown) => {
  const code = errnoCodeOf(error);
  return new UsageError(t().bulk.cannotRead(path, code ? t().errors.fileReason(code) : (error as Error).message));
};

function opened(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (error) {
    throw cannotRead(path, error);
  }
}

function readPiece(path: string, fd: number, buffer: Buffer, held: number): number {
  try {
    return readSync(fd, buffer, held, buffer.length - held, null);
  } catch (error) {
    throw cannotRead(path, error);
  }
}

// UTF-8 bytes as text pieces (the BOM dropped), each ending at a "\n", never a byte of a longer character.
function* textPieces(bytes: Buffer): Generator<string> {
  let start = startsWithBom(bytes) ? 3 : 0;
  while (start < bytes.length) {
    let end = bytes.length;
    if (start + pieceBytes < bytes.length) {
      const newline = bytes.indexOf(0x0a, start + pieceBytes);
      end = newline === -1 ? bytes.length : newline + 1;
    }
    yield bytes.toString('utf8', start, end);
    start = end;
  }
}

async function bytesOf(path: string, stdin: () => NodeJS.ReadableStream): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin() as AsyncIterable<Buffer | string>)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks);
  }
  try {
    return readFileSync(path);
  } catch (error) {
    throw cannotRead(path, error);
  }
}
