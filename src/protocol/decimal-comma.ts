// Amounts in a decimal-comma notation (`1500,00`, `1 500,00`), converted as text, never through a number.

// Thousands separators a spreadsheet writes: a space, a no-break space (Excel), a narrow no-break space.
const grouped = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d+)?$/;
const plain = /^\d+,\d+$/;

// `1500,00` and `1 500,00` are `1500.00`; groups are of three after the first, so `1 50,00` is left for the
// amount's own rule to refuse. Text with no comma and no group separator is returned as it is.
export function fromDecimalComma(text: string): string {
  if (grouped.test(text)) return text.replace(/[ \u00a0\u202f]/g, '').replace(',', '.');
  return plain.test(text) ? text.replace(',', '.') : text;
}

/** An exact decimal with a point as a decimal-comma spreadsheet writes it: `1500.00` is `1500,00` (no grouping). */
export function toDecimalComma(decimal: string): string {
  return decimal.replace('.', ',');
}
