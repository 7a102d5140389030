import { UsageError } from './errors.js';
import { registerSecret } from './run-scope.js';
import { redactedText } from './secrets.js';

/** Where payments are recorded (the `ledger` setting): a SQLite file or a desk's PostgreSQL. `shown`
 * names it in messages, a password as ***; `play` marks --sandbox's or --replay's own ledger. */
export type LedgerLocation =
  | { kind: 'file'; path: string; shown: string; play?: '--sandbox' | '--replay' }
  | { kind: 'postgres'; url: string; shown: string };

const postgresScheme = /^postgres(?:ql)?:\/\//i;
const anyScheme = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A postgres URL without its password, in the userinfo or as a `password=` parameter. */
function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = redactedText;
  if (shown.searchParams.has('password')) shown.searchParams.set('password', redactedText);
  // URLSearchParams would write *** as %2A%2A%2A.
  return shown.href.replaceAll('%2A%2A%2A', redactedText);
}

/** Every spelling of the database password that could reach a message, kept out of them all. */
function registerPasswords(url: URL): void {
  for (const password of [url.password, url.searchParams.get('password') ?? '']) {
    if (password === '') continue;
    registerSecret(password);
    try {
      registerSecret(decodeURIComponent(password));
    } catch {
      // not percent-encoded: registered as it is
    }
  }
}

export function parseLedgerLocation(raw: string, where: string): LedgerLocation {
  const text = raw.trim();
  if (text === '')
    throw new UsageError(`ledger (${where}) is empty`, { hint: 'give a ledger file path or a postgres:// URL' });
  if (!anyScheme.test(text)) return { kind: 'file', path: raw, shown: raw };
  if (!postgresScheme.test(text)) {
    // Everything between the scheme and the last @ may be a user and password (a / in it included).
    const withoutCredentials = text.includes('@') ? text.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/i, '$1***@') : text;
    throw new UsageError(
      `ledger ${JSON.stringify(withoutCredentials)} (${where}) is neither a file path nor a postgres:// URL`,
      {
        hint: 'give a ledger file path, or postgres://user@host:5432/database for a team ledger',
      },
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`ledger URL (${where}) is not a URL`, {
      hint: 'postgres://user@host:5432/database; a password with @, : or / in it must be percent-encoded',
    });
  }
  registerPasswords(url);
  return { kind: 'postgres', url: text, shown: shownUrl(url) };
}
