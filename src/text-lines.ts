import { StringDecoder } from 'node:string_decoder';

/**
 * Text split into lines as node:readline splits it (with crlfDelay Infinity): at "\n", "\r\n"
 * or a lone "\r". For the long inputs of batches (an ids file, the journal), where readline's
 * event and promise per line cost more than the work done with the line.
 */
function splitLines(text: string): { lines: string[]; rest: string } {
  if (!text.includes('\r')) {
    const lines = text.split('\n');
    return { lines, rest: lines.pop()! };
  }
  // A "\r" at the very end stays in what is left: it may be half of a "\r\n" split across chunks.
  const held = text.endsWith('\r') ? 1 : 0;
  const lines = text.slice(0, text.length - held).split(/\r\n|\n|\r/);
  return { lines, rest: lines.pop()! + (held ? '\r' : '') };
}

/**
 * The lines of a stream, a chunk's worth at a time, as readline would give them one by one.
 * Chunks of bytes are read as UTF-8 (split characters joined), or as latin1 "byte text".
 */
export async function* linesOf(chunks: AsyncIterable<string | Buffer>, bytesAs: 'utf8' | 'latin1'): AsyncGenerator<string[]> {
  const decoder = new StringDecoder(bytesAs);
  let rest = '';
  for await (const chunk of chunks) {
    const split = splitLines(rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    rest = split.rest;
    if (split.lines.length > 0) yield split.lines;
  }
  rest += decoder.end();
  const last = splitLines(rest);
  // The end of the input ends the last line, as does a "\r" held back in case a "\n" followed.
  if (last.rest !== '') last.lines.push(last.rest.endsWith('\r') ? last.rest.slice(0, -1) : last.rest);
  if (last.lines.length > 0) yield last.lines;
}
