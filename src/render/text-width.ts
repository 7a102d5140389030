// Columns text takes on a terminal or receipt printer: a grapheme takes one, two when East Asian wide;
// escapes and control characters none.

// Made when first needed: it loads ICU's break rules, which a receipt of plain letters never needs.
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string) =>
  (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);

/** Text whose every character is one column and one grapheme: printable Latin, Greek and Cyrillic, nothing
 * combining, and the dashes, quotes, currency signs, №, arrows, box lines, ✓ and ✗ that tables and notes use. */
const oneColumnEach =
  /^[\u0020-\u007e\u00a0-\u02ff\u0370-\u03ff\u0400-\u0482\u048a-\u052f\u2010-\u2027\u2030-\u203b\u20a0-\u20c0\u2116\u2190-\u2193\u2500-\u257f\u2713\u2717]*$/;

const escapes = /\u001b\[[0-9;]*[A-Za-z]/g;

// UAX #11's W and F blocks and emoji drawn as pictures (emoji presentation, or asked for by U+FE0F). A symbol
// drawn as text (©, ®, ™, ❤ without U+FE0F) takes one column, as terminals draw it and as the quick count does.
const wide =
  /^(?:[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f1e6}-\u{1f1ff}\u{20000}-\u{3fffd}]|\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f|[#*0-9]\ufe0f?\u20e3)/u;
const zeroWidth = /^(?:[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f]|\p{M})/u;

/** The columns one grapheme takes. */
function graphemeWidth(grapheme: string): number {
  if (wide.test(grapheme)) return 2;
  if (zeroWidth.test(grapheme)) return 0;
  return 1;
}

export function displayWidth(text: string): number {
  const plain = text.replace(escapes, '');
  if (oneColumnEach.test(plain)) return plain.length;
  let width = 0;
  for (const { segment } of graphemes(plain)) width += graphemeWidth(segment);
  return width;
}

/** `word` in pieces of at most `width` columns (a grapheme wider than that alone on its piece). */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const { segment } of graphemes(word)) {
    const columns = graphemeWidth(segment);
    if (used + columns > width && piece !== '') {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += columns;
  }
  if (piece !== '' || pieces.length === 0) pieces.push(piece);
  return pieces;
}

// Plain text in lines of at most `width`, broken at spaces, inside a word only when it alone is wider; runs of
// spaces become one.
export function wrapToWidth(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    for (const piece of displayWidth(word) > width ? breakWord(word, width) : [word]) {
      const columns = displayWidth(piece);
      if (line !== '' && used + 1 + columns <= width) {
        line += ` ${piece}`;
        used += 1 + columns;
        continue;
      }
      if (line !== '') lines.push(line);
      line = piece;
      used = columns;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}
