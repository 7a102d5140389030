// A secret as a regular expression that finds it in every spelling, mixed character by character: typed,
// form- or URI-encoded, JSON-escaped as deep as JSON nests (spec 2.4); docs/security.md lists them.

/** What goes on a word or a number: no short secret is found next to one. */
export const wordCharacter = /[\p{L}\p{N}]/u;

// An escape just before a token (`\n`, `\u0020`, `%20`) ends the text before it, whatever its last character.
const escapeBefore = /(?:\\[bfnrt]|\\u[0-9a-fA-F]{4}|%[0-9a-fA-F]{2})$/;
const wordBefore = /(?:[\p{L}\p{N}]|\p{N}[.,])$/u;
const wordAfter = /^(?:[\p{L}\p{N}]|[.,]\p{N})/u;

/** Whether a short secret's match is a whole token: no letter, digit or `5.`-like decimal on either
 * side (-1 skips a side). Checked per match, not in the expression, which stays cheap to compile. */
export function isWholeToken(text: string, start: number, end: number): boolean {
  if (end >= 0 && wordAfter.test(text.slice(end, end + 3))) return false;
  if (start <= 0 || escapeBefore.test(text.slice(Math.max(0, start - 6), start))) return true;
  return !wordBefore.test(text.slice(Math.max(0, start - 3), start));
}

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

/** The backslash that starts an escape, as deep as JSON goes: `\` in a JSON string, `\\` in a
 * JSON document inside one (an Extras FieldValue), `\\\\` a level deeper, or `\u005c`. Each
 * unit starts with its own character, so the run is matched without backtracking in it. */
const escapeStart = String.raw`\\(?:\\|u005[cC])*`;

const hexDigits = (code: number, width: number) =>
  [...code.toString(16).padStart(width, '0')].map((digit) => literal(digit, true)).join('');

const unitsOf = (character: string) => [...Array(character.length).keys()].map((index) => character.charCodeAt(index));

/** The character itself; a letter in both cases when `caseless` (an MD5's or an escape's hex
 * digit). Any other character as `\uXXXX` (each half of a pair past U+FFFF): no syntax to escape. */
function literal(character: string, caseless: boolean): string {
  if (!wordCharacter.test(character))
    return unitsOf(character)
      .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
      .join('');
  const upper = character.toUpperCase();
  const lower = character.toLowerCase();
  return caseless && upper !== lower ? `[${lower}${upper}]` : character;
}

/** One character as typed or JSON-escaped at any depth: `\u00f6` (a surrogate pair past U+FFFF), `\"`. */
function jsonSpelled(character: string, caseless: boolean): string {
  if (character === '\\') return escapeStart;
  const [first, second] = unitsOf(character).map((unit) => `u${hexDigits(unit, 4)}`);
  const short = shortEscapes[character];
  // One run of backslashes for both escapes of a character: each run costs the regex engine a loop.
  const escaped =
    second !== undefined
      ? `${escapeStart}${first}${escapeStart}${second}`
      : `${escapeStart}${short === undefined ? first : `(?:${first}|${short})`}`;
  return `${literal(character, caseless)}|${escaped}`;
}

const utf8 = new TextEncoder();

// What neither URI nor form encoding writes as `%XX` (encodeURIComponent and URLSearchParams both leave these).
const neverEncoded = /^[A-Za-z0-9*\-._]$/;

/** One character in every spelling: JSON's, or form- or URI-encoded. */
function spelled(character: string, caseless: boolean): string {
  const ways = [jsonSpelled(character, caseless)];
  if (!neverEncoded.test(character))
    ways.push([...utf8.encode(character)].map((byte) => `%${hexDigits(byte, 2)}`).join(''));
  if (character === ' ') ways.push('\\+');
  return `(?:${ways.join('|')})`;
}

/** The pattern of `secret` in every spelling (an expression without flag `u`). `caseless`: its
 * letters in either case (an MD5 in hex is the same in either case). */
export function secretPattern(secret: string, caseless: boolean): string {
  return [...secret].map((character) => spelled(character, caseless)).join('');
}
