/*
 * The HTTP contract every transport keeps: one form POST, its answer read whole up to a size
 * limit within one deadline, and every failure sorted by what it means for money (sent or
 * not). open-transport.ts picks one per run: node:http for a few exchanges on a direct
 * connection (node-transport.ts), undici for batches and proxies (undici-transport.ts).
 */
import { EventEmitter } from 'node:events';
import { decodeAnswer } from './answer-charset.js';

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
  timeoutMs: number;
  maxBodyBytes: number;
  /** Aborts the exchange early (Ctrl+C); the deadline applies as well. */
  signal?: AbortSignal;
}

/**
 * How form POSTs reach the gateway. `post` resolves with any HTTP answer that arrived whole
 * (the caller judges status codes) and rejects with ExchangeFailure when none did, or with
 * BodyTooLargeError.
 */
export interface Transport {
  post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer>;
  /** Lets the exchanges in flight finish, then closes every connection. */
  close(): Promise<void>;
  /** Cuts every connection at once, exchanges in flight included (Ctrl+C). */
  destroy(): Promise<void>;
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

function describe(error: unknown, timeoutMs: number, connected: boolean): string {
  const codes = errorCodes(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return connected ? `no complete answer within ${timeoutMs} ms` : `could not connect within ${timeoutMs} ms`;
  }
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
    case 'EPIPE':
      return 'the connection was closed before the answer arrived';
    case 'ETIMEDOUT':
      return connected ? 'the connection timed out before the answer arrived' : 'could not connect (timed out)';
    default:
      if (codes[0]?.startsWith('HPE_')) return `the answer is not valid HTTP (${codes[0]})`;
      return error instanceof Error ? error.message : String(error);
  }
}

/** True when the failure was a certificate that did not verify (for a hint about --ca-file). */
export function isCertificateFailure(error: unknown): boolean {
  return errorCodes(error).some((code) => certificateCodes.has(code));
}

/** The first bytes of a body, decoded as the whole body would be (answer-charset.ts). */
export function sampleOf(chunks: readonly Buffer[], contentType: string | undefined): string {
  return decodeAnswer(Buffer.concat(chunks).subarray(0, answerSampleBytes), contentType);
}

/**
 * What a failed exchange means. `connected` says whether the request could have left: false
 * while the connection (and its TLS handshake) was still being made, so nothing was sent;
 * undefined when the transport cannot tell, and the error's codes decide. `contentType` is
 * the answer's, when its headers arrived, to decode the sample by.
 */
export function exchangeFailureOf(
  error: unknown,
  options: { timeoutMs: number; connected?: boolean | undefined; chunks: readonly Buffer[]; contentType?: string | undefined },
): Error {
  if (error instanceof BodyTooLargeError) return error;
  const notSent = options.connected === false || errorCodes(error).some((code) => connectPhaseCodes.has(code)) || proxyRefusal(error) !== undefined;
  return new ExchangeFailure(notSent ? 'notSent' : 'maybeSent', describe(error, options.timeoutMs, options.connected ?? true), {
    cause: error,
    bodySample: options.chunks.length > 0 ? sampleOf(options.chunks, options.contentType) : undefined,
  });
}

/** What an answer's headers say that reading its body needs. */
export interface AnswerHead {
  statusCode: number;
  /** The Content-Type header, by whose charset the body is decoded (answer-charset.ts). */
  contentType: string | undefined;
}

/** The Content-Type as node:http (a string) or undici (a string, or several) gives it; the last counts, as in fetch. */
export function contentTypeOf(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.at(-1) : header;
}

/** The readable side of an answer, as node:http and undici both give it. */
interface AnswerBody {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  destroy(): unknown;
  readonly destroyed: boolean;
}

/**
 * The body as text, decoded by the charset its head declares (answer-charset.ts); refused
 * past maxBytes, counted in bytes before decoding. What arrived is left in `chunks` for a
 * failure's sample. Events, not an async iterator: a batch reads thousands.
 */
export function readLimited(body: AnswerBody, head: AnswerHead, maxBytes: number, chunks: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (body.destroyed) return;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        if (chunks.length === 0) chunks.push(chunk);
        body.destroy();
        reject(new BodyTooLargeError(maxBytes, head.statusCode, sampleOf(chunks, head.contentType)));
      }
    });
    body.once('end', () => resolve(decodeAnswer(Buffer.concat(chunks, size), head.contentType)));
    body.on('error', reject);
  });
}

/**
 * One deadline for a whole exchange (connect, headers and body: a body that trickles forever
 * is ended only by this), or an earlier stop (Ctrl+C), as an emitter of 'abort' (undici takes
 * it as its signal). A batch sets thousands of these; AbortSignal.timeout costs several times
 * as much. Its reason is what AbortSignal.timeout would give (a TimeoutError), or the
 * caller's reason.
 */
export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly stopEarly: AbortSignal | undefined;
  private readonly onStop = () => this.abort(this.stopEarly?.reason);

  constructor(timeoutMs: number, stopEarly: AbortSignal | undefined) {
    super();
    this.timer = setTimeout(() => this.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs).unref();
    this.stopEarly = stopEarly;
    if (stopEarly?.aborted) this.abort(stopEarly.reason);
    else stopEarly?.addEventListener('abort', this.onStop, { once: true });
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  clear(): void {
    clearTimeout(this.timer);
    this.stopEarly?.removeEventListener('abort', this.onStop);
  }
}

/** Where a request to a URL goes, in the forms node:http (hostname, port) and undici (origin) take. */
export interface Target {
  url: string;
  protocol: string;
  origin: string;
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
        origin: parsed.origin,
        hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: parsed.port,
        path: `${parsed.pathname}${parsed.search}`,
      };
    }
    return this.last;
  }
}

export const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } as const;

/**
 * How requests reach the gateway: directly, through one explicit proxy (--proxy), or through
 * the proxies the environment names (HTTP_PROXY, HTTPS_PROXY, NO_PROXY).
 */
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
