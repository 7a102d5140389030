import { Agent, EnvHttpProxyAgent, ProxyAgent, request, type Dispatcher } from 'undici';

/**
 * One form POST and its answer, with every way it can go wrong sorted into two kinds that
 * matter for money: the request surely never left (`notSent`), or it may have reached the
 * gateway (`maybeSent`). The caller decides what each means for its operation.
 */
export type ExchangeFailureKind = 'notSent' | 'maybeSent';

/**
 * The largest answer read, in bytes (1 MiB). A gateway envelope is a few hundred bytes and a
 * long voucher list a few kilobytes; anything bigger is not an answer we understand, and
 * reading it whole would let a broken gateway fill memory.
 */
export const maxAnswerBytes = 1024 * 1024;

/** How much of a body a failure keeps, for `--verbose` ("the first bytes of the answer"). */
export const answerSampleBytes = 200;

export class ExchangeFailure extends Error {
  readonly kind: ExchangeFailureKind;
  /** The first bytes of a body that began to arrive before the failure, if any. */
  readonly bodySample: string | undefined;
  constructor(kind: ExchangeFailureKind, message: string, options: { cause?: unknown; bodySample?: string | undefined } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ExchangeFailure';
    this.kind = kind;
    this.bodySample = options.bodySample;
  }
}

export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  readonly statusCode: number;
  readonly bodySample: string;
  constructor(maxBytes: number, statusCode: number, bodySample: string) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
    this.statusCode = statusCode;
    this.bodySample = bodySample;
  }
}

export interface HttpAnswer {
  statusCode: number;
  body: string;
}

export interface PostOptions {
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Aborts the exchange early (Ctrl+C); the deadline applies as well. */
  signal?: AbortSignal;
}

/** Certificate verification failures: the TLS handshake failed, so no request left. */
const certificateCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

/** Errors raised before a byte of the request could have reached the server. */
const connectPhaseCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_PRX_TLS',
  ...certificateCodes,
]);

/** Every `code` along the error's cause chain (undici wraps socket and TLS errors). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/**
 * A proxy that refused to open a tunnel (CONNECT answered with other than 200) or asked for
 * credentials (407) never passed the request on. undici says so only in the message.
 */
function proxyRefusal(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : '';
  const tunnel = /^Proxy response \((\d+)\) !== 200/.exec(message);
  if (tunnel) return `the proxy refused to open a tunnel to the gateway (HTTP ${tunnel[1]})`;
  if (message.includes('Proxy Authentication Required (407)')) return 'the proxy asks for credentials (HTTP 407): put them in the proxy URL';
  return undefined;
}

function describe(error: unknown, timeoutMs: number): string {
  const codes = errorCodes(error);
  if (error instanceof Error && error.name === 'TimeoutError') return `no complete answer within ${timeoutMs} ms`;
  const refusal = proxyRefusal(error);
  if (refusal) return refusal;
  if (error instanceof Error && error.name === 'AbortError') return 'interrupted before the answer arrived';
  const certificate = codes.find((code) => certificateCodes.has(code));
  if (certificate) {
    const reason = certificate === 'ERR_TLS_CERT_ALTNAME_INVALID' || certificate === 'HOSTNAME_MISMATCH' ? 'is for another host name' : 'is not trusted';
    return `the TLS certificate ${reason} (${certificate}); nothing was sent`;
  }
  switch (codes[0]) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect within ${timeoutMs} ms`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `no complete answer within ${timeoutMs} ms`;
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
      return 'the connection was closed before the answer arrived';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** True when the failure was a certificate that did not verify (for a hint about --ca-file). */
export function isCertificateFailure(error: unknown): boolean {
  return errorCodes(error).some((code) => certificateCodes.has(code));
}

function sampleOf(chunks: readonly Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, answerSampleBytes).toString('utf8');
}

/**
 * POSTs a form body. Resolves with any HTTP answer that arrived whole (the caller judges
 * status codes); rejects with ExchangeFailure when none did, or BodyTooLargeError.
 */
export async function postForm(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
  // One deadline for the whole exchange: connect, headers and body. undici's own body
  // time-out restarts with every chunk, so only this ends a body that trickles forever.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const chunks: Buffer[] = [];
  try {
    const response = await request(url, {
      method: 'POST',
      body: formBody,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      dispatcher: options.dispatcher,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBodyBytes) {
        if (chunks.length === 0) chunks.push(chunk);
        response.body.destroy();
        throw new BodyTooLargeError(options.maxBodyBytes, response.statusCode, sampleOf(chunks));
      }
      chunks.push(chunk);
    }
    // A UTF-8 decode that drops a leading byte order mark, as browsers and fetch do: some
    // gateways put one before their JSON, and JSON parsers refuse it.
    return { statusCode: response.statusCode, body: new TextDecoder('utf-8').decode(Buffer.concat(chunks)) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    const kind: ExchangeFailureKind = errorCodes(error).some((code) => connectPhaseCodes.has(code)) || proxyRefusal(error) ? 'notSent' : 'maybeSent';
    throw new ExchangeFailure(kind, describe(error, options.timeoutMs), {
      cause: error,
      bodySample: chunks.length > 0 ? sampleOf(chunks) : undefined,
    });
  }
}

/**
 * How requests reach the gateway: directly, through one explicit proxy (--proxy), or through
 * the proxies the environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY).
 */
export type ProxyRoute =
  | { kind: 'direct' }
  | { kind: 'explicit'; url: string }
  | { kind: 'env'; httpProxy: string; httpsProxy: string; noProxy: string };

export interface DispatcherOptions {
  timeoutMs: number;
  connections?: number | undefined;
  /** PEM text of the CA certificates to trust instead of the built-in ones (--ca-file). */
  ca?: string | undefined;
  proxy?: ProxyRoute | undefined;
}

/**
 * One keep-alive pool for the whole run, so a batch reuses its connections. Certificates are
 * always verified: `rejectUnauthorized` is set here so that not even
 * NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment can turn verification off.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const tls = { timeout: options.timeoutMs, rejectUnauthorized: true, ...(options.ca === undefined ? {} : { ca: options.ca }) };
  const common = {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? null,
  };
  // Through a proxy: the gateway's TLS (requestTls) is verified as a direct one would be; an
  // http:// gateway is asked for with an absolute URI, as curl does, since many proxies
  // allow CONNECT to port 443 only.
  const proxied = { ...common, connect: tls, requestTls: tls, proxyTls: { timeout: options.timeoutMs, rejectUnauthorized: true }, proxyTunnel: false };
  const route = options.proxy ?? { kind: 'direct' };
  switch (route.kind) {
    case 'direct':
      return new Agent({ ...common, connect: tls });
    case 'explicit':
      return new ProxyAgent({ ...proxied, uri: route.url });
    case 'env':
      // Every value is passed, even empty, so undici never reads process.env on its own.
      return new EnvHttpProxyAgent({ ...proxied, httpProxy: route.httpProxy, httpsProxy: route.httpsProxy, noProxy: route.noProxy });
  }
}
