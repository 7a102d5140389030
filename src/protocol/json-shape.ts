import { exactTextOf } from './lossless.js';

// Pieces for the hand-written readers of parsed JSON: each refusal is a ShapeError naming where it is and what
// was expected, so every reader's messages read alike.
export class ShapeError extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    got: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${describeValue(got)}`);
    this.name = 'ShapeError';
  }
}

/** A short, safe description of what was found, for a message. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  const text = typeof value === 'number' ? String(value) : exactTextOf(value);
  if (text !== undefined) return `the number ${text.length > 40 ? `${text.slice(0, 40)}...` : text}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `at` and `key` joined as a path: `TransactionContent.Extras.0`. */
export const pathOf = (at: string, key: string | number): string => (at === '' ? String(key) : `${at}.${key}`);

/** An object's own member (not "__proto__", not inherited), or undefined; a list or plain value has none. */
export function memberOf(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** A JSON object (not a list, not null); a ShapeError otherwise. */
export function objectAt(value: unknown, path: string): object {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new ShapeError(path, 'an object', value);
}

/** A JSON string or number as the exact text it was written with; a ShapeError otherwise. */
export function exactTextAt(value: unknown, path: string, expected = 'a string or a number'): string {
  const text = typeof value === 'number' ? String(value) : exactTextOf(value);
  if (text === undefined) throw new ShapeError(path, expected, value);
  return text;
}

/** exactTextAt for a field that may also be null or absent (both read as undefined). */
export function optionalTextAt(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : exactTextAt(value, path);
}
