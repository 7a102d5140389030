import type { Style } from './style.js';
import { widestUnit, widestWord, wrapCell } from './table-cells.js';
import { displayWidth } from './text-width.js';

// The one table renderer for what a person reads: bordered, a heading row, fit to a width: a long cell wraps in
// its column, never cut or split inside an escape; when columns cannot fit, the least needed go (dropOrder).
export interface TableColumn {
  heading: string;
  align?: 'left' | 'right';
  /** May be left out when the table does not fit: the lowest goes first. Never left out without it. */
  dropOrder?: number;
  /** Kept whole (an id a person copies): wrapped only when nothing else can make room. */
  whole?: boolean;
}

export interface TableOptions {
  style: Style;
  /** The columns the table may take; undefined: as wide as its cells (a file, a pipe). */
  width?: number | undefined;
}

export interface TableLayout {
  /** The top border and the heading row (a heading may wrap too). */
  head: string[];
  /** A row's lines; its cells are given for every column, left out ones included. */
  row(cells: readonly string[]): string[];
  foot: string;
  /** The headings of the columns left out for want of width, in the order given. */
  hidden: string[];
}

/** A column wrapped narrower than this reads as a list of fragments: below it, columns go first. */
const readableWidth = 8;
/** A word up to this wide (a date, an amount with its currency) is kept whole at a readable width. */
const keptWordWidth = 12;

const asciiBorders = { top: ['+', '-', '+', '+'], bottom: ['+', '-', '+', '+'], side: '|' } as const;
const boxBorders = { top: ['┌', '─', '┬', '┐'], bottom: ['└', '─', '┴', '┘'], side: '│' } as const;

/** Columns a row of these widths takes: a space either side of each cell, and a border between and around. */
const tableWidth = (widths: readonly number[]) => widths.reduce((sum, width) => sum + width + 3, 1);

/** Per column: its widest cell or heading; its widest cell or heading word; its widest word; its widest unit. */
interface Measured {
  natural: number[];
  whole: number[];
  words: number[];
  units: number[];
}

interface Fitted {
  kept: number[];
  widths: number[];
}

// Which columns are kept and how wide: as wide as their cells when that fits; else the least needed go until
// the rest fit readably, then the widest are narrowed a column at a time.
function fitColumns(
  columns: readonly TableColumn[],
  natural: number[],
  measure: () => Measured,
  width?: number,
): Fitted {
  let kept = columns.map((_, index) => index);
  if (width === undefined || tableWidth(natural) <= width) return { kept, widths: natural };
  const { whole, units, words } = measure();
  const readable = (index: number) =>
    columns[index]!.whole
      ? whole[index]!
      : Math.min(natural[index]!, Math.max(readableWidth, units[index]!, Math.min(words[index]!, keptWordWidth)));
  const dropping = kept
    .filter((index) => columns[index]!.dropOrder !== undefined)
    .sort((a, b) => columns[a]!.dropOrder! - columns[b]!.dropOrder!);
  for (const index of dropping) {
    if (tableWidth(kept.map(readable)) <= width) break;
    kept = kept.filter((other) => other !== index);
  }
  const widths = kept.map((index) => natural[index]!);
  const unbroken = (at: number) => (columns[kept[at]!]!.whole ? whole[kept[at]!]! : units[kept[at]!]!);
  for (const floor of [(at: number) => readable(kept[at]!), unbroken, (at: number) => units[kept[at]!]!]) {
    while (tableWidth(widths) > width) {
      let widest = -1;
      for (const [at, columnWidth] of widths.entries())
        if (columnWidth > floor(at) && (widest < 0 || columnWidth > widths[widest]!)) widest = at;
      if (widest < 0) break;
      widths[widest]!--;
    }
  }
  return { kept, widths };
}

// The layout from the headings and a sample of rows (all, or a stream's first); later rows wrap to its widths.
export function tableLayout(
  columns: readonly TableColumn[],
  sample: readonly (readonly string[])[],
  options: TableOptions,
): TableLayout {
  const { style } = options;
  const natural = columns.map((column, index) =>
    Math.max(displayWidth(column.heading), ...sample.map((cells) => displayWidth(cells[index] ?? ''))),
  );
  // Words and units only when the cells do not fit: a table that fits is measured once.
  const measured = (): Measured => ({
    natural,
    words: columns.map((column, index) =>
      Math.max(widestWord(column.heading), ...sample.map((cells) => widestWord(cells[index] ?? ''))),
    ),
    whole: columns.map((column, index) =>
      Math.max(widestWord(column.heading), ...sample.map((cells) => displayWidth(cells[index] ?? ''))),
    ),
    units: columns.map((_, index) => Math.max(1, ...sample.map((cells) => widestUnit(cells[index] ?? '')))),
  });
  const { kept, widths } = fitColumns(columns, natural, measured, options.width);
  const borders = style.enabled ? boxBorders : asciiBorders;
  const rule = ([left, line, middle, right]: readonly string[]) =>
    `${left}${widths.map((width) => line!.repeat(width + 2)).join(middle)}${right}`;
  // Without a width a cell wider than its column (a row after the sample) sticks out whole, as a file's line may.
  const wrap = options.width === undefined ? (text: string) => [text] : wrapCell;
  const lines = (cells: readonly string[]): string[] => {
    const wrapped = kept.map((index, at) => wrap(cells[index] ?? '', widths[at]!));
    const height = Math.max(...wrapped.map((cell) => cell.length));
    return Array.from({ length: height }, (_, line) => {
      const shown = wrapped.map((cell, at) => {
        const text = cell[line] ?? '';
        const padding = ' '.repeat(Math.max(0, widths[at]! - displayWidth(text)));
        return columns[kept[at]!]!.align === 'right' ? ` ${padding}${text} ` : ` ${text}${padding} `;
      });
      return `${borders.side}${shown.join(borders.side)}${borders.side}`;
    });
  };
  return {
    head: [rule(borders.top), ...lines(columns.map((column) => style.heading(column.heading)))],
    row: lines,
    foot: rule(borders.bottom),
    hidden: columns.filter((_, index) => !kept.includes(index)).map((column) => column.heading),
  };
}

/** A whole table's lines: the layout from every row. */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  options: TableOptions,
): { lines: string[]; hidden: string[] } {
  const layout = tableLayout(columns, rows, options);
  return { lines: [...layout.head, ...rows.flatMap((cells) => layout.row(cells)), layout.foot], hidden: layout.hidden };
}
