import { InvalidFieldError } from './problems.js';

/**
 * Amounts are decimal strings end to end and sent byte for byte (spec 4.2: Amount must
 * equal OrderAmount "to the last decimal digit"), so `2497` and `2497.00` are different
 * amounts here. Nothing in this file turns an amount into a JS number.
 */
const plainDecimal = /^(0|[1-9]\d*)(\.\d+)?$/;

export function isPlainDecimal(text: string): boolean {
  return plainDecimal.test(text);
}

/** Validates a user-typed amount and returns it unchanged. */
export function parseAmount(text: string, field = '--amount'): string {
  if (isPlainDecimal(text)) return text;
  throw new InvalidFieldError(field, `${field} ${describeBadAmount(text)}`);
}

function describeBadAmount(text: string): string {
  const shown = JSON.stringify(text);
  if (text.trim() === '') return 'is empty: give a plain decimal such as 2497.00';
  if (/^\d+,\d+$/.test(text)) return `${shown} uses a comma: use a dot, as in ${text.replace(',', '.')}`;
  if (text.startsWith('-')) return `${shown} is negative: amounts are plain non-negative decimals`;
  if (text !== text.trim()) return `${shown} has spaces around it: give the digits only`;
  if (/^0\d/.test(text)) return `${shown} has a leading zero: write it without, as in ${text.replace(/^0+(?=\d)/, '')}`;
  return `${shown} is not a plain decimal such as 2497.00 (digits, at most one dot; no exponent, sign or hex)`;
}

/** The currency code as the gateway expects it (spec 2.1; examples use KZT and USD). */
export function parseCurrency(text: string): string {
  if (/^[A-Za-z]{3}$/.test(text)) return text.toUpperCase();
  throw new InvalidFieldError('--currency', `--currency ${JSON.stringify(text)} is not a three-letter code such as KZT or USD`);
}
