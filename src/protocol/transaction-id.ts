import { InvalidFieldError } from './problems.js';

/** TransactionID is a Long (spec 2.1): a signed 64-bit integer, never a JS number. */
const longMax = 9223372036854775807n;

export function isLongId(text: string): boolean {
  // Up to 18 digits always fits; only a 19-digit one needs the comparison.
  return /^(0|[1-9]\d{0,18})$/.test(text) && (text.length < 19 || BigInt(text) <= longMax);
}

export function parseTransactionId(text: string, field = 'transaction id'): string {
  if (isLongId(text)) return text;
  const shown = JSON.stringify(text);
  if (/^\d+$/.test(text) && !/^0\d/.test(text)) {
    throw new InvalidFieldError(field, `${field} ${shown} is too large: it must fit a signed 64-bit Long (at most ${longMax})`);
  }
  throw new InvalidFieldError(field, `${field} ${shown} is not a transaction id: digits only, no sign, dot or leading zero`);
}

let lastIssued = 0n;

/**
 * A fresh TransactionID: milliseconds since the epoch times 10^6 plus a random part. Unique
 * across restarts because time moves on, across concurrent processes because the random
 * part makes a clash within one millisecond a one-in-a-million event (and the journal's
 * replay guard refuses a clash with a different purchase), and within this process because
 * ids only ever increase. The value stays below 2^63 until the year 2262.
 */
export function generateTransactionId(now: number = Date.now()): string {
  // node:crypto is loaded when an id is made: a Status look-up makes none.
  const { randomInt } = process.getBuiltinModule('node:crypto');
  let id = BigInt(now) * 1_000_000n + BigInt(randomInt(0, 1_000_000));
  if (id <= lastIssued) id = lastIssued + 1n;
  lastIssued = id;
  return id.toString();
}
