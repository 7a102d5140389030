import type { Absence, ValueType } from '../i18n/scenario-checks.js';
import { isLosslessNumber, parseLosslessJson, stringifyLosslessJson } from '../protocol/lossless.js';

// Paths into a step's record, for placeholders and assertions (docs/scenarios.md "Paths"): `.name`,
// `["a.b"]`, `[n]`, `[*]` (assertions only), `@json` (spec 2.4 FieldValue, parsed losslessly), `.length`.
// Numbers from the gateway stay exact: compared and shown by their text.
export type PathSegment =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'each' }
  | { kind: 'json' };

export class PathSyntaxError extends Error {
  constructor(path: string, reason: string) {
    super(`path ${JSON.stringify(path)}: ${reason}`);
    this.name = 'PathSyntaxError';
  }
}

const namePattern = /^[A-Za-z_$][\w$-]*/;

export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let rest = path.trim();
  const first = namePattern.exec(rest);
  if (!first) throw new PathSyntaxError(path, 'must start with a name, such as state or envelope');
  segments.push({ kind: 'field', name: first[0] });
  rest = rest.slice(first[0].length);
  while (rest !== '') {
    let match: RegExpExecArray | null;
    if ((match = /^\.([A-Za-z_$][\w$-]*)/.exec(rest))) segments.push({ kind: 'field', name: match[1]! });
    else if ((match = /^\[(\d{1,9})\]/.exec(rest))) segments.push({ kind: 'index', index: Number(match[1]) });
    else if ((match = /^\[\*\]/.exec(rest))) segments.push({ kind: 'each' });
    else if ((match = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest)))
      segments.push({ kind: 'field', name: JSON.parse(`"${match[1]!}"`) as string });
    else if ((match = /^@json/.exec(rest))) segments.push({ kind: 'json' });
    else throw new PathSyntaxError(path, `cannot read ${JSON.stringify(rest)}: use .name, [n], [*], ["name"] or @json`);
    rest = rest.slice(match[0].length);
  }
  return segments;
}

export function formatPath(segments: readonly PathSegment[]): string {
  return segments
    .map((segment, i) => {
      switch (segment.kind) {
        case 'field':
          if (!/^[A-Za-z_$][\w$-]*$/.test(segment.name)) return `[${JSON.stringify(segment.name)}]`;
          return i === 0 ? segment.name : `.${segment.name}`;
        case 'index':
          return `[${segment.index}]`;
        case 'each':
          return '[*]';
        case 'json':
          return '@json';
      }
    })
    .join('');
}

/** One value a path leads to: where exactly, what is there (or why nothing is), and for `[*]` which element. */
export interface PathValue {
  /** The concrete path (`[*]` resolved to an index), and as text. */
  segments: PathSegment[];
  path: string;
  /** Set when nothing is there: missing, not JSON, ... */
  absence?: Absence;
  value?: unknown;
  /** For `[*]`: the innermost element's index from 0, and position from 1. */
  each?: { index: number; position: number };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);

/** Every value `segments` lead to from `root` (more than one only through `[*]`). */
export function resolvePath(root: unknown, segments: readonly PathSegment[]): PathValue[] {
  const results: PathValue[] = [];
  const walk = (value: unknown, at: number, done: PathSegment[], each: PathValue['each']): void => {
    const place = (path: PathSegment[]) => ({ segments: path, path: formatPath(path), ...(each ? { each } : {}) });
    const lost = (absence: Absence, path = done): PathValue => ({ ...place(path), absence });
    if (at === segments.length) return void results.push({ ...place(done), value });
    const segment = segments[at]!;
    const next = (v: unknown) => walk(v, at + 1, [...done, segment], each);
    switch (segment.kind) {
      case 'field':
        if ((Array.isArray(value) || typeof value === 'string') && segment.name === 'length')
          return next(String(value.length));
        if (isRecord(value) && Object.hasOwn(value, segment.name)) return next(value[segment.name]);
        return void results.push(lost({ why: 'missing' }, [...done, segment]));
      case 'index':
        if (Array.isArray(value) && segment.index < value.length) return next(value[segment.index]);
        return void results.push(
          lost(Array.isArray(value) ? { why: 'listHas', length: value.length } : { why: 'notList' }, [
            ...done,
            segment,
          ]),
        );
      case 'each':
        if (!Array.isArray(value)) return void results.push(lost({ why: 'eachNotList' }));
        if (value.length === 0) return void results.push(lost({ why: 'emptyList' }));
        value.forEach((item, index) =>
          walk(item, at + 1, [...done, { kind: 'index', index }], { index, position: index + 1 }),
        );
        return;
      case 'json':
        if (typeof value !== 'string')
          return void results.push(lost({ why: 'notJsonString', type: typeOfValue(value) }));
        try {
          return next(parseLosslessJson(value));
        } catch {
          return void results.push(lost({ why: 'notJson' }));
        }
    }
  };
  walk(root, 0, [], undefined);
  return results;
}

export function typeOfValue(value: unknown): ValueType {
  if (value === null || value === undefined) return 'null';
  if (isLosslessNumber(value) || typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'list';
  return 'object';
}

/** A value as text: exact digits for gateway numbers, JSON for lists and objects. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isLosslessNumber(value)) return value.value;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return stringifyLosslessJson(value);
  return String(value as number | boolean | bigint);
}

/** A value for a message: strings quoted, numbers and the rest as JSON text. */
export function showValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : valueText(value);
}
