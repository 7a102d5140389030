import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

// Gateway JSON is parsed losslessly: RequestID and TransactinID are Longs (spec 2.2) that may exceed 2^53, and
// amounts keep every digit (`10.630` stays `10.630`). Everything of ours takes it from here.
export function parseLosslessJson(text: string): unknown {
  return parsedNatively(text) ?? parse(text);
}

// A JSON string, or a JSON number (outside strings, since a match takes a string whole). The
// string as runs of plain characters between escapes: one step a run, not one a character.
const stringOrNumber = /"[^"\\]*(?:\\.[^"\\]*)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// A number's text in a string no gateway JSON can hold unescaped: U+0001 first.
const mark = '\u0001';
const markEscaped = '\\u0001';

// lossless-json's answer through the native JSON.parse, each number's text carried in a marked string.
// Undefined leaves the text to lossless-json and its own errors: text JSON.parse refuses, a string holding
// the mark, duplicate keys (told by counting every string and number of the text in the result).
function parsedNatively(text: string): unknown {
  if (text.includes(markEscaped)) return undefined;
  let tokens = 0;
  const marked = text.replace(stringOrNumber, (token) => {
    tokens++;
    return token.charCodeAt(0) === 0x22 ? token : `"${markEscaped}${token}"`;
  });
  let value: unknown;
  try {
    value = JSON.parse(marked);
  } catch {
    return undefined;
  }
  const counted = { tokens: 0 };
  try {
    const result = revive(value, counted);
    return counted.tokens === tokens ? result : undefined;
  } catch {
    // Nesting deeper than the stack: lossless-json decides (and says so its own way).
    return undefined;
  }
}

/** Marked strings made LosslessNumbers, counting the strings and numbers met (keys too). */
function revive(value: unknown, counted: { tokens: number }): unknown {
  if (typeof value === 'string') {
    counted.tokens++;
    return value.charCodeAt(0) === 1 && value.startsWith(mark) ? new LosslessNumber(value.slice(1)) : value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i], counted);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      counted.tokens++;
      object[key] = revive(object[key], counted);
    }
  }
  return value;
}

/** `space` indents, for a report a person reads. */
export function stringifyLosslessJson(value: unknown, space?: number): string {
  return stringify(value, undefined, space) ?? 'null';
}

export { isLosslessNumber, LosslessNumber };

/** A JSON string or number as the exact text it was written with; undefined for anything else. */
export function exactTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return value instanceof LosslessNumber ? value.value : undefined;
}
