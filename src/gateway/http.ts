// The transport's HTTP contract (--replay and tests may bring their own): one form POST, its answer read whole
// up to a size limit (read-answer.ts) within one deadline (deadline.ts), each failure sorted by what it means
// for money (exchange-failure.ts).

export interface HttpAnswer {
  statusCode: number;
  /** The body decoded by its charset (answer-charset.ts). */
  body: string;
  /** The body's bytes as they arrived and the Content-Type they came with, for --record. */
  bytes: Buffer;
  contentType: string | undefined;
}

export interface PostOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  /** Aborts the exchange early (Ctrl+C); the deadline applies as well. */
  signal?: AbortSignal;
}

/** How form POSTs reach the gateway. `post` resolves with any HTTP answer that arrived whole
 * (the caller judges status codes) and rejects with ExchangeFailure when none did, or with
 * BodyTooLargeError. */
export interface Transport {
  post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer>;
  /** Lets the exchanges in flight finish, then closes every connection. */
  close(): Promise<void>;
  /** Cuts every connection at once, exchanges in flight included (Ctrl+C). */
  destroy(): Promise<void>;
}

/** Where a request to a URL goes, as node:http takes it. */
interface Target {
  url: string;
  protocol: string;
  /** Without the brackets of an IPv6 address's URL form, as node:http wants it. */
  hostname: string;
  port: string;
  path: string;
}

/** Parses URLs into targets, keeping the last: a batch posts to one URL thousands of times. */
export class Targets {
  private last: Target | undefined;

  of(url: string): Target {
    if (this.last?.url !== url) {
      const parsed = new URL(url);
      this.last = {
        url,
        protocol: parsed.protocol,
        hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: parsed.port,
        path: `${parsed.pathname}${parsed.search}`,
      };
    }
    return this.last;
  }
}

export const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } as const;

/** How requests reach the gateway: directly, through one explicit proxy (--proxy), or through
 * the proxies the environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY). */
export type ProxyRoute =
  | { kind: 'direct' }
  | { kind: 'explicit'; url: string }
  | { kind: 'env'; httpProxy: string; httpsProxy: string; noProxy: string };

export interface TransportOptions {
  timeoutMs: number;
  /** The most connections open at once (a batch's concurrency); unlimited when unset. */
  connections?: number | undefined;
  /** PEM text of the CA certificates to trust instead of the built-in ones (--ca-file). */
  ca?: string | undefined;
  proxy?: ProxyRoute | undefined;
}
