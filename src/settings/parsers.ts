import { UsageError } from '../errors.js';
import { type LedgerLocation, parseLedgerLocation } from '../ledger-location.js';
import type { RawValue } from '../options/definition.js';
import type { CodeList } from '../protocol/codes.js';
import { baseUrlForm } from '../protocol/gateway-identity.js';
import { isPlainDecimal } from '../protocol/money.js';
import { registerSecret, t } from '../run-scope.js';
import { redactUrlCredentials } from '../secrets.js';
import { codeListSettings } from './code-lists.js';

/** A raw value to what the program uses; `where` names its source in messages ("flag", a variable, "profile"). */
export type Parse<T> = (raw: RawValue, where: string) => T;

export const text: Parse<string> = (raw) => String(raw);

/** The settings' words of the chosen catalogue, and where a value came from, as it names it. */
const said = () => t().settings;
const from = (where: string) => said().where(where);

/** true or false (a profile's `"live": true`). */
export const yesOrNo: Parse<boolean> = (raw, where) => {
  if (typeof raw === 'boolean') return raw;
  throw new UsageError(said().yesOrNo(JSON.stringify(raw), from(where)));
};

/** Amounts per currency: a profile's `{"KZT": "50000.00"}` or a flag's `KZT=50000.00,USD=100`; a flag's bare
 * `50000.00` holds for any currency (key `*`). Plain decimals as --amount takes them; a JSON number is refused. */
export function amountsPerCurrency(name: string): Parse<AmountsPerCurrency> {
  return (raw, where) => {
    const fail = (what: string): never => {
      throw new UsageError(
        `${name} ${typeof raw === 'string' ? JSON.stringify(raw) : ''} (${from(where)}): ${what}`.replace('  (', ' ('),
        { hint: where === 'profile' ? said().amounts.profileHint : said().amounts.flagHint },
      );
    };
    const pairs: [string, unknown][] =
      typeof raw === 'string'
        ? raw.split(',').map((item) => {
            const [currency, amount] = item.includes('=') ? item.split('=', 2) : ['*', item];
            return [currency!.trim(), amount!.trim()];
          })
        : typeof raw === 'object' && !Array.isArray(raw)
          ? Object.entries(raw)
          : fail(said().amounts.notAmounts);
    const limits = new Map<string, string>();
    for (const [currency, amount] of pairs) {
      const code =
        currency === '*' && typeof raw === 'string'
          ? '*'
          : /^[A-Za-z]{3}$/.test(currency)
            ? currency.toUpperCase()
            : fail(said().amounts.notCurrency(currency));
      if (typeof amount !== 'string' || !isPlainDecimal(amount))
        fail(said().amounts.notDecimal(code === '*' ? undefined : code, typeof amount === 'number'));
      if (limits.has(code)) fail(said().amounts.twice(code));
      limits.set(code, amount as string);
    }
    return limits;
  };
}

/** A decimal amount for each currency code; `*` for any currency (a flag's bare amount). */
export type AmountsPerCurrency = ReadonlyMap<string, string>;

const durationUnits: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000 };

/** A span of time: `30s`, `10m`, `1h`, or seconds as a number; 0 (or `off`) for none. In milliseconds. */
export function duration(name: string): Parse<number> {
  return (raw, where) => {
    const given = String(raw).trim();
    if (given === 'off' || given === '0') return 0;
    const match = /^(\d{1,6})([smh]?)$/.exec(given);
    if (match) return Number(match[1]) * durationUnits[match[2] || 's']!;
    throw new UsageError(said().notDuration(name, JSON.stringify(raw), from(where)), { hint: said().durationHint });
  };
}

export const ledgerLocation: Parse<LedgerLocation> = (raw, where) => parseLedgerLocation(String(raw), where);

export function wholeMilliseconds(name: string): Parse<number> {
  return (raw, where) => {
    const digits = String(raw);
    if (!/^[1-9]\d{0,8}$/.test(digits))
      throw new UsageError(said().wholeNumber(name, JSON.stringify(digits), from(where), 1, 999999999, 'milliseconds'));
    return Number(digits);
  };
}

export function wholeNumberBetween(name: string, min: number, max: number): Parse<number> {
  return (raw, where) => {
    const digits = String(raw);
    if (/^\d{1,7}$/.test(digits) && Number(digits) >= min && Number(digits) <= max) return Number(digits);
    throw new UsageError(said().wholeNumber(name, JSON.stringify(digits), from(where), min, max));
  };
}

export function oneOf<T extends string>(allowed: readonly T[], name: string): Parse<T> {
  return (raw, where) => {
    if ((allowed as readonly unknown[]).includes(raw)) return raw as T;
    throw new UsageError(said().oneOf(name, JSON.stringify(raw), from(where), allowed.join(', ')));
  };
}

/** A code list of one setting ("11, 12" or [11, "12"]); its errors name that setting. */
export function codeList(list: CodeList): Parse<ReadonlySet<string>> {
  const { key } = codeListSettings[list];
  return (raw, where) => {
    const items = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.map(String) : [String(raw)];
    const codes = items.map((item) => item.trim()).filter((item) => item !== '');
    for (const code of codes)
      if (!/^-?\d+$/.test(code)) throw new UsageError(said().codeNotInteger(key, code, from(where)));
    // As a JSON number's text, which is how ResponseStatus comes: `01` is 1, never a code of its own.
    const numbers = codes.map((code) => BigInt(code).toString());
    if (numbers.includes('10')) throw new UsageError(said().codeTen(key, from(where)));
    return new Set(numbers);
  };
}

export const agentId: Parse<string> = (raw, where) => {
  // spec 2.1: AgentID is numeric, in one spelling (no leading zero: the ledger keys payments by it).
  if (typeof raw === 'string' && /^(0|[1-9]\d{0,18})$/.test(raw)) return raw;
  throw new UsageError(said().agentIdDigits(JSON.stringify(raw), from(where)));
};

export const baseUrl: Parse<string> = (raw, where) => {
  const shown = JSON.stringify(raw);
  const words = said().url;
  const here = from(where);
  // `127.0.0.1:8080` or `gateway.example`: a scheme is all that is missing.
  const schemeHint = /^[a-z][a-z0-9+.-]*:\/\//i.test(String(raw))
    ? words.giveOne('https://gateway.example/')
    : words.giveAs(String(raw));
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new UsageError(words.notUrl(words.names.base, shown, here), { hint: schemeHint });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(words.scheme(words.names.base, shown, here), { hint: schemeHint });
  }
  if (url.search || url.hash) throw new UsageError(words.queryOrFragment(shown, here));
  if (url.username || url.password) {
    // spec 5: the credentials are form fields; a password in the URL would end up in messages.
    throw new UsageError(words.credentials(here), { hint: words.credentialsHint });
  }
  // One spelling of one gateway (protocol/gateway-identity.ts): what is sent to, shown and keyed by.
  const base = baseUrlForm(url);
  // spec 4: every request goes to {base_url}/home/index; a URL copied with it would double it.
  if (/\/home\/index$/i.test(base)) {
    throw new UsageError(words.homeIndex(shown, here), {
      hint: words.give(base.replace(/\/home\/index$/i, '') || url.origin),
    });
  }
  return base;
};

export const proxyUrl: Parse<string> = (raw, where) => {
  const given = String(raw);
  // `proxy.example:3128` without a scheme means http://, as curl takes it.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `http://${given}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    const { names, notUrl, giveOne } = said().url;
    throw new UsageError(notUrl(names.proxy, JSON.stringify(redactUrlCredentials(given)), from(where)), {
      hint: giveOne('http://proxy.example:3128'),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const { names, scheme } = said().url;
    throw new UsageError(scheme(names.proxy, JSON.stringify(redactUrlCredentials(withScheme)), from(where)));
  }
  // Proxy credentials are secrets too: kept out of every message from here on.
  if (url.password) {
    registerSecret(url.password);
    try {
      registerSecret(decodeURIComponent(url.password));
    } catch {
      // not percent-encoded text: registered as it is
    }
  }
  return withScheme;
};
