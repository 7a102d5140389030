/*
 * What a walk-through shows against what the command printed. Only what must differ from run to
 * run is loose: a TransactionID (19 digits) stands for the one the run made, the same one wherever
 * the page repeats it; a date (2026-11-21, 21.11.2026), a time (09:14:03, 15:30:00 +05:00) or a duration (349 ms,
 * 0.46 s) stands for any.
 * A line `...` stands for any number of lines. Everything else is compared as written.
 */

/** The page's TransactionIDs and the run's, both ways. */
export interface IdMap {
  actual: Map<string, string>;
  documented: Map<string, string>;
}

export const newIdMap = (): IdMap => ({ actual: new Map(), documented: new Map() });

/** `requestIds`: a RequestID (16 digits) stands for any; the sandbox's count on across the pages of one HOME. */
export interface Loose {
  requestIds?: boolean;
}

const loosePart = new RegExp(
  [
    '(?<!\\d)(\\d{19})(?!\\d)',
    '\\d{4}-\\d{2}-\\d{2}',
    '\\d{2}\\.\\d{2}\\.\\d{4}',
    '\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?: [+-]\\d{2}:\\d{2})?',
    '(?<![\\d.])\\d+(?:\\.\\d+)? m?s(?!\\w)',
  ].join('|'),
  'g',
);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A shown line as a pattern: its TransactionIDs captured in order, dates and times any. */
function linePattern(shown: string, loose: Loose): { pattern: RegExp; ids: string[] } {
  const ids: string[] = [];
  let source = '';
  let from = 0;
  for (const match of shown.matchAll(loosePart)) {
    source += escaped(shown.slice(from, match.index));
    if (match[1] !== undefined) {
      ids.push(match[1]);
      source += '(\\d{19})';
    } else {
      // A duration (349 ms, 0.46 s) is any number of its unit; a date or a time (and zone) keeps its shape.
      const duration = /^[\d.]+ (m?s)$/.exec(match[0]);
      const shape = match[0].replace(/\./g, '\\.').replace(/\d/g, '\\d').replace(/ [+-]/, ' [+-]');
      source += duration ? `\\d+(?:\\.\\d+)? ${duration[1]}` : shape;
    }
    from = match.index + match[0].length;
  }
  source += escaped(shown.slice(from));
  if (loose.requestIds) source = source.replace(/(?<!\d)\d{16}(?!\d)/g, '\\d{16,19}');
  return { pattern: new RegExp(`^${source}$`), ids };
}

/** The ids a line binds, or undefined when it does not match (or contradicts an earlier binding). */
function matchLine(shown: string, printed: string, ids: IdMap, loose: Loose): IdMap | undefined {
  const { pattern, ids: documented } = linePattern(shown.trimEnd(), loose);
  const found = pattern.exec(printed.trimEnd());
  if (!found) return undefined;
  const next: IdMap = { actual: new Map(ids.actual), documented: new Map(ids.documented) };
  for (const [index, documentedId] of documented.entries()) {
    const actualId = found[index + 1]!;
    const known = next.actual.get(documentedId);
    if (known !== undefined ? known !== actualId : next.documented.has(actualId)) return undefined;
    next.actual.set(documentedId, actualId);
    next.documented.set(actualId, documentedId);
  }
  return next;
}

const isEllipsis = (line: string) => line.trim() === '...' || line.trim() === '…';

/** The bindings after the shown lines matched the printed ones, whole; undefined if they do not. */
export function matchOutput(
  shown: readonly string[],
  printed: readonly string[],
  ids: IdMap,
  loose: Loose = {},
): IdMap | undefined {
  const from = (s: number, p: number, bound: IdMap): IdMap | undefined => {
    if (s === shown.length) return p === printed.length ? bound : undefined;
    if (isEllipsis(shown[s]!)) {
      for (let skip = p; skip <= printed.length; skip++) {
        const done = from(s + 1, skip, bound);
        if (done) return done;
      }
      return undefined;
    }
    if (p === printed.length) return undefined;
    const next = matchLine(shown[s]!, printed[p]!, bound, loose);
    return next && from(s + 1, p + 1, next);
  };
  return from(0, 0, ids);
}

/** The command as the run types it: each TransactionID the page showed earlier becomes the run's. */
export const withActualIds = (command: string, ids: IdMap): string =>
  command.replace(/(?<!\d)\d{19}(?!\d)/g, (id) => ids.actual.get(id) ?? id);
