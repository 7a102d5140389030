// Our bounds on what a purchase sends, where the spec leaves them open (spec 2.1, spec 5): wide enough for any
// real account and service id, narrow enough to refuse a cell gone wrong. docs/commands.md "pay --from-file".

/** Account is a String (spec 2.1): at most this many characters. */
export const accountMaxCharacters = 64;

/** Service is a "String/number" ID (spec 2.1): digits, as many as any 64-bit number has at most. */
export const serviceIdMaxDigits = 20;

/** Amount is Money, a decimal (spec 2.1): at most this many digits before the point, and after it. */
export const amountMaxDigits = { whole: 15, fraction: 6 } as const;

export function isServiceId(text: string): boolean {
  return text.length <= serviceIdMaxDigits && /^\d+$/.test(text);
}

/** Whether a plain decimal (money.ts) has no more digits than an amount may have. */
export function isAmountWithinBounds(plainDecimal: string): boolean {
  const point = plainDecimal.indexOf('.');
  const whole = point === -1 ? plainDecimal.length : point;
  const fraction = point === -1 ? 0 : plainDecimal.length - point - 1;
  return whole <= amountMaxDigits.whole && fraction <= amountMaxDigits.fraction;
}

/** Characters (code points) of `text`, counted no further than `limit` + 1: a long text is not walked whole. */
export function charactersUpTo(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let count = 0;
  for (let i = 0; i < text.length && count <= limit; i++, count++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return count;
}

// The first character no field may hold (a control character, which PostgreSQL cannot always store, or half a
// surrogate pair) and its position from 1, or undefined.
export function forbiddenCharacterIn(
  text: string,
): { position: number; code: number; kind: 'control' | 'loneSurrogate' } | undefined {
  for (let index = 0, position = 1; index < text.length; index++, position++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return { position, code, kind: 'control' };
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
    else return { position, code, kind: 'loneSurrogate' };
  }
  return undefined;
}
