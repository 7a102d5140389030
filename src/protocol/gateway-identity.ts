// One gateway, one name: a TransactionID is unique per gateway and agent (spec 3), so spellings of one base URL
// are one ledger key (docs/configuration.md "One gateway, one name").

// A base URL in the one form agentpay sends to and shows: WHATWG URL's scheme and host, no default port, no dot
// segments, no trailing slash.
export function baseUrlForm(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

// `localhost` is the loopback address by definition (RFC 6761 6.3); other names of one host
// (a DNS name and its address) cannot be told apart without asking DNS, and are not.
const loopbackNames = new Set(['localhost', 'localhost.']);

/** The last name asked and its answer: a ledger read names one gateway line after line. */
let last = { gateway: '', identity: '' };

// The ledger's name for a gateway: baseUrlForm, with `localhost` as 127.0.0.1; a non-URL ("sandbox", "replay")
// is its own name. Requests still go to the base URL as given.
export function gatewayIdentity(gateway: string): string {
  if (gateway === last.gateway) return last.identity;
  let identity = gateway;
  if (URL.canParse(gateway)) {
    const url = new URL(gateway);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      if (loopbackNames.has(url.hostname)) url.hostname = '127.0.0.1';
      identity = baseUrlForm(url);
    }
  }
  last = { gateway, identity };
  return identity;
}

/** The ledger's names of play money (--sandbox, --replay): never a gateway of the real books (docs/desk-safety.md). */
export const playMoneyGateways: ReadonlySet<string> = new Set(['sandbox', 'replay']);
