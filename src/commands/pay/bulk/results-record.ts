const [quote, carriageReturn, lineFeed] = [0x22, 0x0d, 0x0a];

/**
 * Cells of one record of a results file, read again from its bytes when a resume did not keep
 * its words (results-read.ts): what csv-parse gave for them the first time, for a record it read
 * whole. A cell opened by a quote ends at a quote not doubled, and "" inside it is a quote; any
 * other cell ends at the delimiter. `bytes` runs from the end of the record before (empty lines
 * csv-parse passed over come first) to the start of the record's own line end. `slots[column]`
 * is where a column's cell goes in what is returned (the others are passed over, not decoded);
 * a cell the record does not have is undefined.
 */
export function recordCells(
  bytes: Buffer,
  delimiter: number,
  slots: readonly number[],
  count: number,
): (string | undefined)[] {
  const cells: (string | undefined)[] = new Array(count).fill(undefined);
  let at = 0;
  while (bytes[at] === carriageReturn || bytes[at] === lineFeed) at++;
  for (let column = 0; ; column++) {
    const slot = column < slots.length ? slots[column]! : -1;
    if (bytes[at] === quote) {
      let text = '';
      let from = at + 1;
      for (;;) {
        const next = bytes.indexOf(quote, from);
        if (next === -1) throw new Error('a quoted cell of the record has no closing quote');
        if (slot !== -1) text += bytes.toString('utf8', from, next);
        if (bytes[next + 1] !== quote) {
          at = next + 1;
          break;
        }
        if (slot !== -1) text += '"';
        from = next + 2;
      }
      if (slot !== -1) cells[slot] = text;
    } else {
      const next = bytes.indexOf(delimiter, at);
      const end = next === -1 ? bytes.length : next;
      if (slot !== -1) cells[slot] = bytes.toString('utf8', at, end);
      at = end;
    }
    if (at >= bytes.length || column + 1 >= slots.length) return cells;
    at++;
  }
}
