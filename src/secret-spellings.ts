/*
 * One secret as the source of a regular expression (flag `u`) that finds it in every spelling
 * it may take in a gateway's answer, a form or a JSON line, in any mix character by character:
 * as typed; form- or URI-encoded (`%C3%B6` in either case, `+` for a space); JSON-escaped
 * (`\"`, `\/`, `\u00f6` or `\u00F6`, `\u0023` for `#`, every character as `\uXXXX`), as deep
 * as JSON nests: a JSON document inside a JSON string (an Extras FieldValue, spec 2.4) and deeper.
 * A short one is found only as a whole token: never inside a longer word or number (docs/security.md).
 */

/** What goes on a word or a number: no token starts or ends next to one. */
const wordCharacter = /[\p{L}\p{N}]/u;

// An escape just before a token (`\n`, `\u0020`, `%20`) ends the text before it, whatever its last character.
const escapeBefore = /(?:\\[bfnrt]|\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2})$/;
const wordBefore = /(?:[\p{L}\p{N}]|\p{N}[.,])$/u;

/**
 * Whether a token may start at `index` of `text`: not after a letter or digit, nor after a
 * digit and a decimal point (`5.` of `5.00`). Checked on each match rather than in the
 * expression: a look-behind at its start would be tried at every position of every line.
 */
export function startsToken(text: string, index: number): boolean {
  if (index === 0) return true;
  if (escapeBefore.test(text.slice(Math.max(0, index - 6), index))) return true;
  return !wordBefore.test(text.slice(Math.max(0, index - 3), index));
}

/** After a token: not a letter or digit, nor a decimal point and a digit (`.00` of `5.00`). */
const tokenEnd = String.raw`(?![\p{L}\p{N}]|[.,]\p{N})`;

/** JSON's short escapes (RFC 8259 7), by the character each stands for; `\\` is escapeStart's. */
const shortEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/**
 * The backslash that starts an escape, as deep as JSON goes: `\` in a JSON string, `\\` in a
 * JSON document inside one (an Extras FieldValue), `\\\\` a level deeper, or `\u005c`. Each
 * unit starts with its own character, so the run is matched without backtracking in it.
 */
const escapeStart = String.raw`\\(?:\\|u005[cC])*`;

const hexDigits = (code: number, width: number) =>
  [...code.toString(16).padStart(width, '0')].map((digit) => literal(digit, true)).join('');

/** The character itself; a letter in both cases when `caseless` (an MD5's or an escape's hex digit). */
function literal(character: string, caseless: boolean): string {
  if (!wordCharacter.test(character)) return `\\u{${character.codePointAt(0)!.toString(16)}}`;
  const upper = character.toUpperCase();
  const lower = character.toLowerCase();
  return caseless && upper !== lower ? `[${lower}${upper}]` : character;
}

/** One character as typed or JSON-escaped at any depth: `\u00f6` (a surrogate pair past U+FFFF), `\"`. */
function jsonSpelled(character: string, caseless: boolean): string {
  if (character === '\\') return escapeStart;
  const units = [...Array(character.length).keys()].map((index) => character.charCodeAt(index));
  const ways = [literal(character, caseless), units.map((unit) => `${escapeStart}u${hexDigits(unit, 4)}`).join('')];
  const short = shortEscapes[character];
  if (short !== undefined) ways.push(`${escapeStart}${short}`);
  return ways.join('|');
}

/** One character in every spelling: JSON's, or form- or URI-encoded. */
function spelled(character: string, caseless: boolean): string {
  const percent = [...new TextEncoder().encode(character)].map((byte) => `%${hexDigits(byte, 2)}`).join('');
  const ways = [jsonSpelled(character, caseless), percent, ...(character === ' ' ? ['\\+'] : [])];
  return `(?:${ways.join('|')})`;
}

/**
 * The pattern of `secret` in every spelling. `token`: found only as a whole token, ending as a
 * token ends, and `startsWord` when a match must also pass startsToken (it starts with a letter
 * or digit). `caseless`: its letters in either case (an MD5 in hex is one in either case).
 */
export function secretPattern(
  secret: string,
  { token, caseless }: { token: boolean; caseless: boolean },
): { pattern: string; startsWord: boolean } {
  const characters = [...secret];
  const body = characters.map((character) => spelled(character, caseless)).join('');
  const end = token && wordCharacter.test(characters.at(-1) ?? '') ? tokenEnd : '';
  return { pattern: `${body}${end}`, startsWord: token && wordCharacter.test(characters[0] ?? '') };
}
