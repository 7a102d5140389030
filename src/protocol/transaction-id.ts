import { InvalidFieldError } from './problems.js';

/** TransactionID is a Long (spec 2.1): a signed 64-bit integer, never a JS number. */
export const longMax = 9223372036854775807n;
const longMaxText = longMax.toString();

export function isLongId(text: string): boolean {
  return transactionIdFault(text) === undefined;
}

/** What keeps `text` from being a TransactionID: not digits, a leading zero, or beyond a Long; undefined when it is one. */
export type TransactionIdFault = 'notDigits' | 'leadingZero' | 'tooLarge';

export function transactionIdFault(text: string): TransactionIdFault | undefined {
  // Up to 18 digits always fits; only a 19-digit one needs the comparison (digits of one length compare as text).
  if (/^(0|[1-9]\d{0,18})$/.test(text)) return text.length < 19 || text <= longMaxText ? undefined : 'tooLarge';
  if (!/^\d+$/.test(text)) return 'notDigits';
  // `007` beside `7` would be two ids for the one the gateway knows.
  return text.startsWith('0') ? 'leadingZero' : 'tooLarge';
}

export function parseTransactionId(text: string, field = 'transaction id'): string {
  const fault = transactionIdFault(text);
  if (fault === undefined) return text;
  const shown = JSON.stringify(text);
  if (fault === 'tooLarge') {
    throw new InvalidFieldError(
      field,
      `${field} ${shown} is too large: it must fit a signed 64-bit Long (at most ${longMax})`,
      { kind: 'tooLarge', value: text },
    );
  }
  throw new InvalidFieldError(
    field,
    `${field} ${shown} is not valid: a TransactionID is digits only, no sign, dot or leading zero`,
    { kind: 'notTransactionId', value: text },
  );
}

/**
 * An echoed TransactinID that names no transaction: zero however written (`0`, `"0"`, `00`,
 * `0.0`) or empty text. Some gateways put it in their error envelopes where spec 2.2 has them
 * echo ours; it claims nothing about which transaction the answer is for. (null and a missing
 * echo say nothing either; the envelope parser gives both as no echo at all.)
 */
export function namesNoTransaction(echo: string): boolean {
  const text = echo.trim();
  return text === '' || /^[-+]?0+(?:\.0*)?$/.test(text);
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
