import { md5Hex } from './protocol/password.js';
import { secretPattern, startsToken } from './secret-spellings.js';

/**
 * The secrets of this process (the agent password, and credentials in a proxy or ledger URL),
 * kept so that everything agentpay writes or keeps can be scrubbed of them: Output, the error
 * boundary, the --verbose trace, the gateway client's answers (and so the ledger) and --record
 * cassettes all pass their text through redactSecrets. A secret is found as typed and as its
 * MD5 (spec 5), in every spelling secret-spellings.ts knows; a short one as a whole token only.
 */
export const redactedText = '***';

/**
 * Shorter than this, a secret as typed is not looked for (its MD5 always is): a word of two or
 * three characters is found in ordinary text and numbers far too often (docs/security.md).
 */
const shortestRedacted = 4;
/** Shorter than this, a secret is found only as a whole token, not inside a word or number; longer, anywhere. */
const shortestFoundAnywhere = 8;

const registered = new Set<string>();

/**
 * The secrets as two expressions, for a start that must begin a token (startsToken) and one that
 * need not, each with the longest secrets first, so that no spelling leaves a partial trace.
 */
interface Matchers {
  /**
   * Whether a text may hold a secret at all: every spelling but the one as typed (or with `+`
   * for its spaces, or an MD5 in any case) has a `\\` or a `%`. Most lines have neither, and
   * this test costs a fraction of the full expressions'.
   */
  mayHold: RegExp | null;
  startingWord: RegExp | null;
  other: RegExp | null;
}

/** Matchers by the extra secrets they were made with ('' for none), made once each; cleared by registerSecret. */
const matchers = new Map<string, Matchers>();
const matchersKept = 16;

export function registerSecret(secret: string): void {
  if (secret === '' || registered.has(secret)) return;
  registered.add(secret);
  matchers.clear();
}

/** The patterns of one secret: as typed (unless too short to tell from ordinary text), and its MD5. */
function patternsOf(secret: string): { length: number; pattern: string; startsWord: boolean }[] {
  const md5 = md5Hex(secret);
  const patterns = [{ length: md5.length, ...secretPattern(md5, { token: false, caseless: true }) }];
  const length = [...secret].length;
  if (length >= shortestRedacted)
    patterns.push({ length, ...secretPattern(secret, { token: length < shortestFoundAnywhere, caseless: false }) });
  return patterns;
}

const escapedForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matchersOf(extra: readonly string[]): Matchers {
  const key = extra.join('\u0000');
  const known = matchers.get(key);
  if (known !== undefined) return known;
  const secrets = new Set([...registered, ...extra.filter((secret) => secret !== '')]);
  const patterns = [...secrets].flatMap(patternsOf).sort((a, b) => b.length - a.length);
  const joined = (startsWord: boolean) => {
    const chosen = patterns.filter((pattern) => pattern.startsWord === startsWord).map(({ pattern }) => pattern);
    return chosen.length === 0 ? null : new RegExp(chosen.join('|'), 'gu');
  };
  const literals = [...secrets].flatMap((secret) =>
    [...secret].length < shortestRedacted ? [md5Hex(secret)] : [secret, secret.replaceAll(' ', '+'), md5Hex(secret)],
  );
  const mayHold = new RegExp(['\\\\', '%', ...literals.map(escapedForPattern)].join('|'), 'i');
  const made = { mayHold: patterns.length === 0 ? null : mayHold, startingWord: joined(true), other: joined(false) };
  if (matchers.size >= matchersKept) matchers.clear();
  matchers.set(key, made);
  return made;
}

/** Every match of `matcher` that starts a token, replaced; one that does not is passed over by a character. */
function redactTokens(text: string, matcher: RegExp): string {
  let redacted = '';
  let copied = 0;
  matcher.lastIndex = 0;
  for (let match = matcher.exec(text); match !== null; match = matcher.exec(text)) {
    if (!startsToken(text, match.index)) {
      matcher.lastIndex = match.index + 1;
      continue;
    }
    redacted += `${text.slice(copied, match.index)}${redactedText}`;
    copied = matcher.lastIndex;
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/** Replaces every registered secret (and every one of `extra`), in every spelling, with ***. */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  if (text === '') return text;
  const { mayHold, startingWord, other } = matchersOf(extra);
  if (mayHold === null || !mayHold.test(text)) return text;
  const tokens = startingWord === null ? text : redactTokens(text, startingWord);
  return other === null ? tokens : tokens.replace(other, redactedText);
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
