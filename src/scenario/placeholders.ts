import { isLosslessNumber } from '../protocol/lossless.js';
import { t } from '../run-scope.js';
import { type PathSegment, parsePath, resolvePath, valueText } from './path.js';

// `${...}` placeholders (`${var.service}`, `${pay.transactionId}`), `$${` a literal `${`. A value that is one
// placeholder takes the value itself (a list stays one); inside longer text it is its text.
export class PlaceholderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlaceholderError';
  }
}

const placeholderPattern = /\$\$\{|\$\{([^}]*)\}/g;

/** The paths of the placeholders in a text, parsed (throws PathSyntaxError on a bad one). */
function placeholdersIn(text: string): { text: string; segments: PathSegment[] }[] {
  const found: { text: string; segments: PathSegment[] }[] = [];
  for (const match of text.matchAll(placeholderPattern)) {
    if (match[1] !== undefined) found.push({ text: match[1].trim(), segments: parsePath(match[1]) });
  }
  return found;
}

/** Every placeholder anywhere in a value of a scenario file (strings inside lists and maps too). */
export function placeholdersInValue(value: unknown): { text: string; segments: PathSegment[] }[] {
  if (typeof value === 'string') return placeholdersIn(value);
  if (Array.isArray(value)) return value.flatMap(placeholdersInValue);
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value))
    return Object.values(value).flatMap(placeholdersInValue);
  return [];
}

/** What the first name of a placeholder stands for: `var`, a step id or kind, `self`, `each`. */
export type PlaceholderScope = ReadonlyMap<string, unknown>;

function lookUp(text: string, scope: PlaceholderScope): unknown {
  const segments = parsePath(text);
  const root = segments[0] as { name: string };
  if (segments.some((s) => s.kind === 'each')) throw new PlaceholderError(t().scenario.placeholder.each(text));
  if (!scope.has(root.name)) throw new PlaceholderError(t().scenario.placeholder.unknownRoot(text, root.name));
  const [found] = resolvePath(scope.get(root.name), segments.slice(1));
  if (!found || found.absence !== undefined) {
    const path = `${root.name}${found?.path ? (found.path.startsWith('[') ? '' : '.') + found.path : ''}`;
    const said = t().scenario;
    throw new PlaceholderError(said.placeholder.absent(text, path, said.absence(found?.absence ?? { why: 'missing' })));
  }
  return found.value;
}

function interpolateText(text: string, scope: PlaceholderScope): unknown {
  const whole = /^\$\{([^}]*)\}$/.exec(text);
  if (whole) {
    const value = lookUp(whole[1]!.trim(), scope);
    return typeof value === 'object' && value !== null && !isLosslessNumber(value) ? value : valueText(value);
  }
  return text.replace(placeholderPattern, (_match, path: string | undefined) =>
    path === undefined ? '${' : valueText(lookUp(path.trim(), scope)),
  );
}

/** The value with every placeholder filled in; throws PlaceholderError when one cannot be. */
export function interpolate(value: unknown, scope: PlaceholderScope): unknown {
  if (typeof value === 'string') return interpolateText(value, scope);
  if (Array.isArray(value)) return value.map((item) => interpolate(item, scope));
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, scope)]));
  }
  return value;
}
