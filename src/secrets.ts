import { md5Hex } from './protocol/password.js';
import { isWholeToken, secretPattern, wordCharacter } from './secret-spellings.js';

/** What a secret is replaced with wherever agentpay writes or keeps text. */
export const redactedText = '***';

/** Shorter than this, a secret as typed is not looked for (its MD5 always is): too common (docs/security.md). */
const shortestRedacted = 4;
/** Shorter than this, a secret is found only as a whole token, not inside a word or number; longer, anywhere. */
const shortestFoundAnywhere = 8;
/** How many sets of extra secrets keep their made matchers. */
const matchersKept = 16;

/** A text looked for, in every spelling: a secret as typed, or an MD5 (its letters in either case). */
interface LookedFor {
  text: string;
  caseless: boolean;
}

/** One secret's expression; a short one (4 to 7 characters) matches only as a whole token. */
interface SecretMatcher {
  matcher: RegExp;
  token: { startsWord: boolean; endsWord: boolean } | undefined;
}

/** `mayHold`: a cheap test whether a text may hold a secret at all; the full expressions made on first need. */
interface Matchers {
  mayHold: RegExp;
  full: () => SecretMatcher[];
}

const lengthOf = (text: string) => [...text].length;
const goesOnWord = (character: string | undefined) => character !== undefined && wordCharacter.test(character);
const escapedForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each secret as typed (unless too short to tell from ordinary text, or an MD5 itself, then in
 * either case) and always its MD5: a password of 32 hex digits is sent as its own MD5 too. */
function lookedFor(secrets: readonly string[]): LookedFor[] {
  const found = new Map<string, LookedFor>();
  const add = (text: string, caseless: boolean) => found.set(caseless ? text.toLowerCase() : text, { text, caseless });
  for (const secret of secrets) {
    if (/^[0-9a-f]{32}$/i.test(secret)) add(secret.toLowerCase(), true);
    else if (lengthOf(secret) >= shortestRedacted) add(secret, false);
    add(md5Hex(secret), true);
  }
  return [...found.values()].sort((a, b) => lengthOf(b.text) - lengthOf(a.text));
}

function matcherOf({ text, caseless }: LookedFor): SecretMatcher {
  const characters = [...text];
  const token =
    characters.length < shortestFoundAnywhere
      ? { startsWord: goesOnWord(characters[0]), endsWord: goesOnWord(characters.at(-1)) }
      : undefined;
  return { matcher: new RegExp(secretPattern(text, caseless), 'g'), token };
}

/** Every match of a short secret that is a whole token, replaced; one that is not is passed over by a character. */
function redactTokens(text: string, matcher: RegExp, token: { startsWord: boolean; endsWord: boolean }): string {
  let redacted = '';
  let copied = 0;
  matcher.lastIndex = 0;
  for (let match = matcher.exec(text); match !== null; match = matcher.exec(text)) {
    const start = token.startsWord ? match.index : -1;
    const end = token.endsWord ? matcher.lastIndex : -1;
    if (!isWholeToken(text, start, end)) {
      matcher.lastIndex = match.index + 1;
      continue;
    }
    redacted += `${text.slice(copied, match.index)}${redactedText}`;
    copied = matcher.lastIndex;
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/** The secrets of one run (the agent password, credentials in a proxy or ledger URL), found as
 * typed and as their MD5 (spec 5) in every spelling secret-spellings.ts knows, so that output,
 * errors, the gateway's answers (and so the ledger) and --record cassettes can be scrubbed of them. */
export class SecretRegistry {
  private readonly registered = new Set<string>();
  /** Matchers by the extra secrets they were made with ('' for none); cleared by register. */
  private readonly matchers = new Map<string, Matchers | null>();

  register(secret: string): void {
    if (secret === '' || this.registered.has(secret)) return;
    this.registered.add(secret);
    this.matchers.clear();
  }

  /** `text` with every registered secret (and every one of `extra`), in every spelling, replaced by ***. */
  redact(text: string, extra: readonly string[] = []): string {
    const matchers = text === '' ? null : this.matchersOf(extra);
    if (matchers === null || !matchers.mayHold.test(text)) return text;
    let redacted = text;
    for (const { matcher, token } of matchers.full())
      redacted = token === undefined ? redacted.replace(matcher, redactedText) : redactTokens(redacted, matcher, token);
    return redacted;
  }

  private matchersOf(extra: readonly string[]): Matchers | null {
    const key = extra.join('\u0000');
    const known = this.matchers.get(key);
    if (known !== undefined) return known;
    const looked = lookedFor([...new Set([...this.registered, ...extra])].filter((secret) => secret !== ''));
    const literals = looked.flatMap(({ text }) => [text, text.replaceAll(' ', '+')]).map(escapedForPattern);
    let full: SecretMatcher[] | undefined;
    const made =
      looked.length === 0
        ? null
        : {
            mayHold: new RegExp([String.raw`\\[\\u"/bfnrt]|%[0-9a-fA-F]{2}`, ...literals].join('|'), 'i'),
            full: () => (full ??= looked.map(matcherOf)),
          };
    if (this.matchers.size >= matchersKept) this.matchers.clear();
    this.matchers.set(key, made);
    return made;
  }
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
