import { fromDecimalComma } from './decimal-comma.js';
import { type FieldProblem, InvalidFieldError } from './problems.js';

// Amounts are decimal strings sent byte for byte (spec 4.2: Amount equals OrderAmount "to the last decimal
// digit"), so `2497` and `2497.00` differ here. Nothing in this file turns an amount into a JS number.
const plainDecimal = /^(0|[1-9]\d*)(\.\d+)?$/;

export function isPlainDecimal(text: string): boolean {
  return plainDecimal.test(text);
}

/** A plain decimal that is zero (`0`, `0.00`): a static payment of it pays nothing. */
export function isZeroDecimal(text: string): boolean {
  return /^0(\.0+)?$/.test(text);
}

/** How a person writes an amount: a decimal point, or a decimal comma where `1 500,50` is `1500.50`. */
export type AmountNotation = 'point' | 'comma';

// A typed amount as the plain decimal sent byte for byte: unchanged, or in the comma notation with its comma
// made a point and its group spaces dropped.
export function parseAmount(text: string, field = '--amount', notation: AmountNotation = 'point'): string {
  if (isPlainDecimal(text)) return text;
  const [kind, description] = notation === 'comma' ? describeCommaAmount(text) : describeBadAmount(text);
  if (kind === undefined) return description;
  throw new InvalidFieldError(field, `${field} ${description}`, { kind, value: text });
}

// `1,500` reads as a thousands comma as well as a decimal one.
const commaGrouping = /^\d{1,3},\d{3}$/;
const groupSpace = /[ \u00a0\u202f]/;

/** The comma notation: the plain decimal it means (no kind), or what is wrong with it. */
function describeCommaAmount(text: string): [FieldProblem['kind'] | undefined, string] {
  const shown = JSON.stringify(text);
  if (text.includes(',') && text.includes('.'))
    return ['bothSeparators', `${shown} has both a point and a comma: write one decimal separator, as in 1500,50`];
  const plain = commaGrouping.test(text) ? text : fromDecimalComma(text);
  if (isPlainDecimal(plain)) return [undefined, plain];
  if (/^\d[\d \u00a0\u202f]*\d(?:,\d+)?$/.test(text) && groupSpace.test(text))
    return ['badGrouping', `${shown} groups its digits unevenly: write 1500,50 or 1 500,50 (groups of three)`];
  // What is left is said of the amount with a point (a leading zero, a sign); the problem keeps the text as typed.
  return describeBadAmount(plain);
}

function describeBadAmount(text: string): [FieldProblem['kind'], string] {
  const shown = JSON.stringify(text);
  if (text.trim() === '') return ['empty', 'is empty: give a plain decimal such as 2497.00'];
  if (commaGrouping.test(text)) {
    const [thousands, decimal] = [text.replace(',', ''), text.replace(',', '.')];
    return [
      'ambiguousGrouping',
      `${shown} could be a thousands comma or a decimal one: write ${thousands} or ${decimal}`,
    ];
  }
  if (/^\d+,\d+$/.test(text)) return ['comma', `${shown} uses a comma: use a dot, as in ${text.replace(',', '.')}`];
  if (text.startsWith('-')) return ['negative', `${shown} is negative: amounts are plain non-negative decimals`];
  if (text !== text.trim()) return ['spaces', `${shown} has spaces around it: give the digits only`];
  if (/^0\d/.test(text))
    return ['leadingZero', `${shown} has a leading zero: write it without, as in ${text.replace(/^0+(?=\d)/, '')}`];
  return [
    'notPlainDecimal',
    `${shown} is not a plain decimal such as 2497.00 (digits, at most one dot; no exponent, sign or hex)`,
  ];
}

/** The currency code as the gateway expects it (spec 2.1; examples use KZT and USD). */
export function parseCurrency(text: string): string {
  if (/^[A-Za-z]{3}$/.test(text)) return text.toUpperCase();
  throw new InvalidFieldError(
    '--currency',
    `--currency ${JSON.stringify(text)} is not a three-letter code such as KZT or USD`,
    { kind: 'notCurrency', value: text },
  );
}

// A decimal's canonical form for comparing as text: `1500`, `1500.00` and `1.5e3` all give `+15e2`, every zero
// `0`; undefined for a non-decimal. Spec 2.3 lets a gateway write Amount as JSON writes numbers, so the
// exponent is read with BigInt and never becomes Infinity.
const decimalText = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

function canonicalDecimal(text: string): string | undefined {
  const match = decimalText.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - significant.length);
  return `${sign === '-' ? '-' : '+'}${significant}e${power}`;
}

/** Whether `text` is a decimal sameDecimal can compare: a sign, digits with one dot, an exponent. */
export function isDecimalNumber(text: string): boolean {
  return canonicalDecimal(text) !== undefined;
}

/** Whether two texts are the same decimal number (`1500` = `1500.00`, `24970` ≠ `2497.00`); never via a JS number. */
export function sameDecimal(a: string, b: string): boolean {
  // The same text (the usual echo of an amount, an exchange rate of 1): no need to take either apart.
  if (a === b && plainDecimal.test(a)) return true;
  const left = canonicalDecimal(a);
  return left !== undefined && left === canonicalDecimal(b);
}

/** A plain decimal as a whole number of units of its last digit: `1500.50` is 150050 at scale 2. */
function scaled(text: string, scale: number): bigint {
  const dot = text.indexOf('.');
  if (dot === -1) return BigInt(text + '0'.repeat(scale));
  return BigInt(text.slice(0, dot) + text.slice(dot + 1) + '0'.repeat(scale - (text.length - dot - 1)));
}

function scaleOf(text: string): number {
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** The exact sum of plain decimals, as precise as the most precise (`1500` + `0.50` = `1500.50`). */
export function addDecimals(...amounts: readonly string[]): string {
  let scale = 0;
  for (const amount of amounts) scale = Math.max(scale, scaleOf(amount));
  let sum = 0n;
  for (const amount of amounts) sum += scaled(amount, scale);
  const total = sum.toString().padStart(scale + 1, '0');
  return scale === 0 ? total : `${total.slice(0, -scale)}.${total.slice(-scale)}`;
}

/** -1, 0 or 1 as plain decimal a is less than, equal to or more than b; exactly. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const difference = scaled(a, scale) - scaled(b, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
