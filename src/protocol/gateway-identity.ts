/**
 * One gateway, one name: a TransactionID is unique per gateway and agent (spec 3), so spellings of
 * one base URL must be one ledger key (docs/configuration.md "One gateway, one name").
 */

/**
 * A base URL in the one form agentpay sends to and shows: WHATWG URL's scheme and host (lower
 * case, punycode, an IPv4 address in its dotted form), no default port, no dot segments, no
 * trailing slash.
 */
export function baseUrlForm(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

// `localhost` is the loopback address by definition (RFC 6761 6.3); other names of one host
// (a DNS name and its address) cannot be told apart without asking DNS, and are not.
const loopbackNames = new Set(['localhost', 'localhost.']);

/** The last name asked and its answer: a ledger read names one gateway line after line. */
let last = { gateway: '', identity: '' };

/**
 * The name the ledger files a gateway's payments under: the base URL's form (baseUrlForm), with
 * `localhost` as 127.0.0.1. Anything that is not an http(s) URL ("sandbox", "replay") is its
 * own name. Requests still go to the base URL as given: only the ledger's key is the identity.
 */
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
