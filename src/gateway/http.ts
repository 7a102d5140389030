import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Agent as UndiciAgent, Dispatcher, EnvHttpProxyAgent as UndiciEnvHttpProxyAgent, ProxyAgent as UndiciProxyAgent } from 'undici';

/*
 * undici's Agent and its request method, loaded without the rest of the package: `import
 * 'undici'` also loads fetch, WebSocket, the caches, cookies and the mocks, several times the
 * load of what a form POST needs, and every command pays it before its first byte is sent.
 * These are the very modules undici's index exports as `Agent` and installs as
 * `Dispatcher.prototype.request` (test/gateway/undici-parts.test.ts checks that they are).
 */
const requireUndici = createRequire(import.meta.url);
export const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export const dispatcherRequest = requireUndici('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/**
 * The proxy agents, only when a proxy is configured: undici's whole package is loaded then,
 * since a ProxyAgent opens its tunnel with `Dispatcher.prototype.connect`, which the package's
 * index installs. Its Agent is the same module as the one above (one module cache).
 */
function proxyAgents(): { ProxyAgent: typeof UndiciProxyAgent; EnvHttpProxyAgent: typeof UndiciEnvHttpProxyAgent } {
  return requireUndici('undici') as typeof import('undici');
}

/*
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 optimises a hot wasm
 * function in the background, and a process cannot exit before such a job is done: for a
 * command that reads a handful of answers that is ~80 ms of CPU and most of its wall time,
 * spent after its work is finished. The baseline (Liftoff) code parses an answer in
 * microseconds, so the optimising tier is left off. It concerns WebAssembly only, of which
 * agentpay has no other. The flag is set as late as it can be, when the first dispatcher is
 * made: a changed V8 flag voids the code cache of Node's own modules, so any loaded after it
 * are compiled afresh (~15 ms if it were set before undici is loaded).
 */
let wasmTierSet = false;
function keepWasmParserUnoptimised(): void {
  if (wasmTierSet) return;
  wasmTierSet = true;
  setFlagsFromString('--liftoff-only');
}

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
 * The body, refused past maxBytes; what arrived is left in `chunks` for a failure's sample.
 * Events, not an async iterator: a batch reads thousands.
 */
function readLimited(body: Dispatcher.ResponseData['body'], statusCode: number, maxBytes: number, chunks: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (body.destroyed) return;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        if (chunks.length === 0) chunks.push(chunk);
        body.destroy();
        reject(new BodyTooLargeError(maxBytes, statusCode, sampleOf(chunks)));
      }
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size)));
    body.on('error', reject);
  });
}

/**
 * One deadline for a whole exchange (connect, headers and body: undici's own body time-out
 * restarts with every chunk, so only this ends a body that trickles forever), or an earlier
 * stop (Ctrl+C), as the signal undici takes: an emitter of 'abort'. A batch sets thousands of
 * these; AbortSignal.timeout costs several times as much. Its reason is what
 * AbortSignal.timeout would give (a TimeoutError), or the caller's reason.
 */
class Deadline extends EventEmitter {
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

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };

let lastTarget: { url: string; origin: string; path: string } | undefined;

/** Origin and path of a URL; a batch posts to one URL thousands of times, so the last is kept. */
function targetOf(url: string): { origin: string; path: string } {
  if (lastTarget?.url !== url) {
    const parsed = new URL(url);
    lastTarget = { url, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  }
  return lastTarget;
}

/** A UTF-8 decode that drops a leading byte order mark, as browsers and fetch do. */
const utf8 = new TextDecoder('utf-8');

/**
 * POSTs a form body. Resolves with any HTTP answer that arrived whole (the caller judges
 * status codes); rejects with ExchangeFailure when none did, or BodyTooLargeError.
 */
export async function postForm(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
  const deadline = new Deadline(options.timeoutMs, options.signal);
  const chunks: Buffer[] = [];
  try {
    const { origin, path } = targetOf(url);
    const response = await dispatcherRequest.call(options.dispatcher, {
      origin,
      path,
      method: 'POST',
      body: formBody,
      headers: formHeaders,
      signal: deadline,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const body = await readLimited(response.body, response.statusCode, options.maxBodyBytes, chunks);
    // Some gateways put a byte order mark before their JSON, and JSON parsers refuse it.
    return { statusCode: response.statusCode, body: utf8.decode(body) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    const kind: ExchangeFailureKind = errorCodes(error).some((code) => connectPhaseCodes.has(code)) || proxyRefusal(error) ? 'notSent' : 'maybeSent';
    throw new ExchangeFailure(kind, describe(error, options.timeoutMs), {
      cause: error,
      bodySample: chunks.length > 0 ? sampleOf(chunks) : undefined,
    });
  } finally {
    deadline.clear();
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
  keepWasmParserUnoptimised();
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
    case 'explicit': {
      const { ProxyAgent } = proxyAgents();
      return new ProxyAgent({ ...proxied, uri: route.url });
    }
    case 'env': {
      const { EnvHttpProxyAgent } = proxyAgents();
      // Every value is passed, even empty, so undici never reads process.env on its own.
      return new EnvHttpProxyAgent({ ...proxied, httpProxy: route.httpProxy, httpsProxy: route.httpsProxy, noProxy: route.noProxy });
    }
  }
}
