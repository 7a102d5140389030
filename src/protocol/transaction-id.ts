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

// An echoed TransactinID that names no transaction: zero however written, or empty. Some gateways echo it in
// error envelopes where spec 2.2 has ours; it claims nothing about which transaction the answer is for.
export function namesNoTransaction(echo: string): boolean {
  const text = echo.trim();
  return text === '' || /^[-+]?0+(?:\.0*)?$/.test(text);
}

let lastIssued = 0n;

// A fresh TransactionID: epoch milliseconds times 10^6 plus a random part; unique across restarts (time),
// processes (the random part, and the journal's replay guard) and within one (ids only increase). Below 2^63
// until 2262.
export function generateTransactionId(now: number = Date.now()): string {
  // node:crypto is loaded when an id is made: a Status look-up makes none.
  const { randomInt } = process.getBuiltinModule('node:crypto');
  let id = BigInt(now) * 1_000_000n + BigInt(randomInt(0, 1_000_000));
  if (id <= lastIssued) id = lastIssued + 1n;
  lastIssued = id;
  return id.toString();
}
