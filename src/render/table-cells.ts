import { displayWidth } from './text-width.js';

// A cell's text in units it may break between: a colour sequence, an escape the sanitizer wrote (one unit,
// never split), a space, or a grapheme. Put together, the units are the text.
const unitPattern = /\u001b\[[0-9;]*m|\\(?:u\{[0-9a-f]+\}|u[0-9a-f]{4}|x[0-9a-f]{2}|[nrt])|\s/gu;

let segmenter: Intl.Segmenter | undefined;

interface Unit {
  text: string;
  width: number;
  kind: 'colour' | 'space' | 'text';
}

function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  const graphemes = (part: string) => {
    for (const { segment } of (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(part))
      units.push({ text: segment, width: displayWidth(segment), kind: 'text' });
  };
  let at = 0;
  for (const match of text.matchAll(unitPattern)) {
    graphemes(text.slice(at, match.index));
    const [unit] = match;
    const kind = unit.startsWith('\u001b') ? 'colour' : /^\s$/u.test(unit) ? 'space' : 'text';
    units.push({ text: unit, width: kind === 'colour' ? 0 : displayWidth(unit), kind });
    at = match.index + unit.length;
  }
  graphemes(text.slice(at));
  return units;
}

/** The widest unit of a cell: a column narrower than it would have to split an escape. */
export function widestUnit(text: string): number {
  return Math.max(1, ...unitsOf(text).map((unit) => unit.width));
}

/** The widest word of a cell (a run between spaces). */
export function widestWord(text: string): number {
  return Math.max(0, ...wordsOf(unitsOf(text)).map((word) => word.width));
}

/** A run of units between spaces, and its width. */
interface Word {
  units: Unit[];
  width: number;
}

function wordsOf(units: readonly Unit[]): Word[] {
  const words: Word[] = [];
  let word: Word = { units: [], width: 0 };
  for (const unit of units) {
    if (unit.kind === 'space') {
      if (word.units.length > 0) words.push(word);
      word = { units: [], width: 0 };
      continue;
    }
    word.units.push(unit);
    word.width += unit.width;
  }
  if (word.units.length > 0) words.push(word);
  return words;
}

// A cell in lines of at most `width`: broken at spaces, inside a word only when it alone is wider, nothing cut.
// A colour open at a break is closed at the line's end and reopened on the next, so a border never takes it.
export function wrapCell(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  const lines: Unit[][] = [[]];
  let used = 0;
  const place = (unit: Unit) => {
    if (unit.width > 0 && used + unit.width > width && used > 0) {
      lines.push([]);
      used = 0;
    }
    lines.at(-1)!.push(unit);
    used += unit.width;
  };
  for (const word of wordsOf(unitsOf(text))) {
    const fitsBesides = used > 0 && used + 1 + word.width <= width;
    if (fitsBesides) place({ text: ' ', width: 1, kind: 'space' });
    else if (used > 0 && word.width <= width) {
      lines.push([]);
      used = 0;
    } else if (used > 0) place({ text: ' ', width: 1, kind: 'space' });
    for (const unit of word.units) place(unit);
  }
  return colouredLines(lines.map((line) => trimmedSpaces(line)));
}

function trimmedSpaces(line: Unit[]): Unit[] {
  let end = line.length;
  while (end > 0 && line[end - 1]!.kind === 'space') end--;
  let start = 0;
  while (start < end && line[start]!.kind === 'space') start++;
  return line.slice(start, end);
}

const reset = '\u001b[0m';

/** Lines of units as text, each closing the colours open at its end and the next opening them again. */
function colouredLines(lines: readonly Unit[][]): string[] {
  let open: string[] = [];
  return lines.map((line) => {
    let text = open.join('');
    for (const unit of line) {
      text += unit.text;
      if (unit.kind !== 'colour') continue;
      // A reset or a closing code ends what was open; anything else opens a colour.
      if (/^\u001b\[(?:0|22|23|24|27|28|29|39|49)?m$/.test(unit.text)) open = [];
      else open.push(unit.text);
    }
    return open.length > 0 ? text + reset : text;
  });
}
