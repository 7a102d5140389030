import { StringDecoder } from 'node:string_decoder';

// Text split into lines as readline splits it (crlfDelay Infinity): "\n", "\r\n" or a lone "\r", for long batch
// inputs where readline's event and promise per line cost more than the work.
function splitLines(text: string): LineBatch & { rest: string } {
  if (!text.includes('\r')) {
    const lines = text.split('\n');
    return { lines, breaks: undefined, rest: lines.pop()! };
  }
  // A "\r" at the very end stays in what is left: it may be half of a "\r\n" split across chunks.
  const held = text.endsWith('\r') ? 1 : 0;
  const parts = text.slice(0, text.length - held).split(/(\r\n|\n|\r)/);
  const lines: string[] = [];
  const breaks: number[] = [];
  for (let i = 0; i < parts.length - 1; i += 2) {
    lines.push(parts[i]!);
    breaks.push(parts[i + 1]!.length);
  }
  return { lines, breaks, rest: parts.at(-1)! + (held ? '\r' : '') };
}

/** How much a long pass over a large file (a provider's registry) reads at a time. */
export const longPassChunkBytes = 16 * 1024;

/** Lines, and the length of the break that ended each (all 1, "\n", when undefined; 0 for a last line at the end). */
interface LineBatch {
  lines: string[];
  breaks: number[] | undefined;
}

// A stream's lines, a chunk at a time, as readline gives them one by one: UTF-8 (split characters joined) or
// latin1 "byte text".
export async function* linesOf(
  chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  bytesAs: 'utf8' | 'latin1',
): AsyncGenerator<string[]> {
  for await (const batch of lineBatchesOf(chunks, bytesAs)) yield batch.lines;
}

/** linesOf, with each line's break: in byte text (latin1) a line's bytes are its length plus its break. */
async function* lineBatchesOf(
  chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  bytesAs: 'utf8' | 'latin1',
): AsyncGenerator<LineBatch> {
  const decoder = new StringDecoder(bytesAs);
  let rest = '';
  for await (const chunk of chunks) {
    const { lines, breaks, rest: left } = splitLines(rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    rest = left;
    if (lines.length > 0) yield { lines, breaks };
  }
  rest += decoder.end();
  const last = splitLines(rest);
  // The end of the input ends the last line, as does a "\r" held back in case a "\n" followed.
  if (last.rest !== '') {
    const lone = last.rest.endsWith('\r');
    last.lines.push(lone ? last.rest.slice(0, -1) : last.rest);
    last.breaks = [...(last.breaks ?? last.lines.slice(0, -1).map(() => 1)), lone ? 1 : 0];
  }
  if (last.lines.length > 0) yield { lines: last.lines, breaks: last.breaks };
}
