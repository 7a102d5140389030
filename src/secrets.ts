import { md5Hex } from './protocol/password.js';

/**
 * The secrets of this process (the agent password, and credentials in a proxy URL), kept so
 * that everything agentpay writes can be scrubbed of them: Output, the error boundary and
 * the --verbose trace all pass their text through redactSecrets. Each secret is registered
 * in every spelling it may take on its way out: as typed, its MD5 (spec 5), form-encoded as
 * the request body carries it, URI-encoded, and JSON-escaped.
 */
export const redactedText = '***';

const secrets = new Set<string>();

/** The spellings of one secret that could appear in a message, a trace or a JSON line. */
export function secretVariants(secret: string): string[] {
  if (secret === '') return [];
  const md5 = md5Hex(secret);
  const variants = [
    secret,
    md5,
    md5.toUpperCase(),
    new URLSearchParams([['', secret]]).toString().slice(1),
    encodeURIComponent(secret),
    ...jsonSpellings(secret),
  ];
  return [...new Set(variants.filter((variant) => variant !== ''))];
}

/**
 * A secret inside a JSON string, as writers spell it: as is but for `"` and `\`; with all but
 * ASCII as `\u00e4` or `\u00E4` (PHP's json_encode, Python's json.dumps); PHP's with `/` as `\/`
 * too. A gateway that echoes a request writes one of them.
 */
function jsonSpellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const hex = (character: string) => character.charCodeAt(0).toString(16).padStart(4, '0');
  const lower = json.replace(/[\u007f-\uffff]/g, (character) => `\\u${hex(character)}`);
  const upper = json.replace(/[\u007f-\uffff]/g, (character) => `\\u${hex(character).toUpperCase()}`);
  return [json, lower, upper].flatMap((spelling) => [spelling, spelling.replaceAll('/', '\\/')]);
}

/** The registered spellings, longest first; sorted once per registration, not once per line. */
let longestFirst: readonly string[] = [];

export function registerSecret(secret: string): void {
  for (const variant of secretVariants(secret)) secrets.add(variant);
  longestFirst = [...secrets].sort((a, b) => b.length - a.length);
}

/** Replaces every registered secret, longest first, so no spelling leaves a partial trace. */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  const all =
    extra.length === 0
      ? longestFirst
      : [...secrets, ...extra.flatMap(secretVariants)].sort((a, b) => b.length - a.length);
  let result = text;
  for (const secret of all) if (result.includes(secret)) result = result.split(secret).join(redactedText);
  return result;
}

/** A URL with its user name and password (if any) replaced, for messages and `doctor`. */
export function redactUrlCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = parsed.username === '' ? '' : redactedText;
    parsed.password = parsed.password === '' ? '' : redactedText;
    return parsed.toString();
  } catch {
    return url;
  }
}
