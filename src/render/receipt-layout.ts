import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { displayWidth, wrapToWidth } from './text-width.js';

// A receipt's lines: a heading, then labelled rows. Values are pieces of text with their colour, so they wrap to
// a receipt printer's width with the colour following the words.

/** Some plain text, and the colour it is shown in. */
export interface Piece {
  text: string;
  paint?: ((text: string) => string) | undefined;
}

export type ReceiptRow = readonly [label: string, value: readonly Piece[]];

/** A value wider than this beside its label goes under it when the label column leaves less. */
const narrowestBeside = 16;

const painted = (pieces: readonly Piece[]) => pieces.map(({ text, paint }) => (paint ? paint(text) : text)).join('');

// The pieces wrapped to `width`, each word in its piece's colour: wrapping keeps every character but spaces in
// order, so colours are taken back by position.
function wrapPieces(pieces: readonly Piece[], width: number): string[] {
  if (width === Number.POSITIVE_INFINITY) return [painted(pieces)];
  const paints: Piece['paint'][] = [];
  for (const { text, paint } of pieces) for (const character of text) if (!/\s/.test(character)) paints.push(paint);
  let next = 0;
  return wrapToWidth(pieces.map(({ text }) => text).join(''), width).map((line) => {
    const runs: Piece[] = [];
    for (const character of line) {
      const paint = character === ' ' ? undefined : paints[next++];
      const last = runs.at(-1);
      if (last !== undefined && last.paint === paint) last.text += character;
      else runs.push({ text: character, paint });
    }
    return painted(runs);
  });
}

// The receipt's lines, none wider than `width` (Infinity: a value a line). A value wraps under itself, or under
// its label where the label column leaves too little room.
export function layoutReceipt(
  heading: readonly Piece[],
  rows: readonly ReceiptRow[],
  style: Style,
  width = Number.POSITIVE_INFINITY,
): string {
  // Every value is shown here, once: a gateway's Message, a voucher's name, an account.
  const shownRows = rows.map(
    ([label, value]): ReceiptRow => [label, value.map(({ text, paint }) => ({ text: shownText(text), paint }))],
  );
  const labelWidth = Math.max(...shownRows.map(([label]) => label.length));
  const indent = 2 + labelWidth + 2;
  const valueWidth = width - indent;
  const lines = wrapPieces(heading, width);
  for (const [label, value] of shownRows) {
    const plain = value.map(({ text }) => text).join('');
    if (valueWidth >= narrowestBeside || displayWidth(plain) <= valueWidth) {
      const [first, ...rest] = wrapPieces(value, valueWidth);
      lines.push(`  ${style.dim(label.padEnd(labelWidth))}  ${first ?? ''}`);
      for (const part of rest) lines.push(`${' '.repeat(indent)}${part}`);
    } else {
      lines.push(`  ${style.dim(label)}`);
      for (const part of wrapPieces(value, width - 4)) lines.push(`    ${part}`);
    }
  }
  return lines.join('\n');
}
