/**
 * An id (a TransactionID or a RequestID, Longs by spec 2.3) as the 64-bit integer it writes,
 * when it is one written so: digits with no leading zero, under 2^64. Anything else is kept as
 * text by the caller, so "0012" or an id beyond a Long comes back exactly as written.
 */
export function longNumber(text: string): bigint | undefined {
  if (!/^[1-9]\d{0,19}$/.test(text)) return undefined;
  const number = BigInt(text);
  return number < 2n ** 64n ? number : undefined;
}
