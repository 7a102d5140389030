/**
 * Amounts in a decimal-comma notation (a Russian or Kazakh spreadsheet: `1500,00`, `1 500,00`),
 * converted by text alone, never through a number, so an amount stays exact.
 */

// Thousands separators a spreadsheet writes: a space, a no-break space (Excel), a narrow no-break space.
const grouped = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d+)?$/;
const plain = /^\d+,\d+$/;

/**
 * An amount written with a decimal comma as the same amount with a point: `1500,00` and
 * `1 500,00` are `1500.00`. Thousands are grouped by three only, after the first group, so
 * `1 50,00` is left as written (and refused by the amount's own rule). Text with no comma
 * and no group separator is returned as it is: `1500.00` and `1500` need no conversion.
 */
export function fromDecimalComma(text: string): string {
  if (grouped.test(text)) return text.replace(/[ \u00a0\u202f]/g, '').replace(',', '.');
  return plain.test(text) ? text.replace(',', '.') : text;
}

/** An exact decimal with a point as a decimal-comma spreadsheet writes it: `1500.00` is `1500,00` (no grouping). */
export function toDecimalComma(decimal: string): string {
  return decimal.replace('.', ',');
}
