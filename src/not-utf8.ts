// Where bytes stop being UTF-8, line by line: what `pay --from-file` and `reconcile --registry` name for a file
// that is not UTF-8, rather than reading it with U+FFFD in place of what was there.

/** Where a reading of bytes is: the line and the column (characters, from 1) the next byte is at. */
export interface TextPosition {
  line: number;
  column: number;
}

/** The first byte of each line that is not UTF-8 (RFC 3629), with its line and column. A file read
 * in pieces passes one `at` to each, each ending after an ASCII byte other than "\r". */
export function notUtf8(
  bytes: Uint8Array,
  at: TextPosition = { line: 1, column: 1 },
): { line: number; column: number; byte: number }[] {
  const found: { line: number; column: number; byte: number }[] = [];
  let { line, column } = at;
  // A byte order mark is no character of the first line.
  const bom = line === 1 && column === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let index = bom ? 3 : 0;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte === 0x0a || (byte === 0x0d && bytes[index + 1] !== 0x0a)) {
      [line, column] = [line + 1, 1];
      index++;
      continue;
    }
    const length = byte < 0x80 ? 1 : sequenceLength(bytes, index);
    if (length === 0 && found.at(-1)?.line !== line) found.push({ line, column, byte });
    index += Math.max(length, 1);
    column++;
  }
  [at.line, at.column] = [line, column];
  return found;
}

/** The length of the UTF-8 sequence that starts at `index` with a byte from 0x80 up, or 0 if it is not one. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index]!;
  const next = bytes[index + 1] ?? 0;
  const continues = (from: number, count: number) => {
    for (let i = from; i < from + count; i++) if (((bytes[i] ?? 0) & 0xc0) !== 0x80) return false;
    return true;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continues(index + 1, 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 needs A0..BF after it (no overlong form); ED needs 80..9F (no surrogate).
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return next >= low && next <= high && continues(index + 2, 1) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0 needs 90..BF after it (no overlong form); F4 needs 80..8F (nothing above U+10FFFF).
    const [low, high] = lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return next >= low && next <= high && continues(index + 2, 2) ? 4 : 0;
  }
  return 0;
}
