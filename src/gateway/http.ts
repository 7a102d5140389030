import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

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

export class ExchangeFailure extends Error {
  readonly kind: ExchangeFailureKind;
  constructor(kind: ExchangeFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExchangeFailure';
    this.kind = kind;
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

/** Errors raised before a byte of the request could have reached the server. */
const connectPhaseCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function describe(error: unknown, timeoutMs: number): string {
  const code = errorCode(error);
  if (error instanceof Error && error.name === 'TimeoutError') return `no complete answer within ${timeoutMs} ms`;
  if (error instanceof Error && error.name === 'AbortError') return 'interrupted before the answer arrived';
  switch (code) {
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

/** The body as text, refused past maxBytes. Events, not an async iterator: a batch reads thousands. */
function readLimited(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (!body.destroyed) {
        body.destroy();
        reject(new BodyTooLargeError(maxBytes));
      }
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    body.on('error', reject);
  });
}

/**
 * One deadline for a whole exchange (connect, headers and body, so a body that trickles
 * forever still ends), or an earlier stop (Ctrl+C), as the signal undici takes: an emitter of
 * 'abort'. A batch sets thousands of these; AbortSignal.timeout costs several times as much.
 * Its reason is what AbortSignal.timeout would give (a TimeoutError), or the caller's reason.
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

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
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

/**
 * POSTs a form body. Resolves with any HTTP answer that arrived whole (the caller judges
 * status codes); rejects with ExchangeFailure when none did, or BodyTooLargeError.
 */
export async function postForm(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
  const deadline = new Deadline(options.timeoutMs, options.signal);
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
    const body = await readLimited(response.body, options.maxBodyBytes);
    return { statusCode: response.statusCode, body };
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    const kind: ExchangeFailureKind = connectPhaseCodes.has(errorCode(error) ?? '') ? 'notSent' : 'maybeSent';
    throw new ExchangeFailure(kind, describe(error, options.timeoutMs), { cause: error });
  } finally {
    deadline.clear();
  }
}

export interface DispatcherOptions {
  timeoutMs: number;
  connections?: number | undefined;
}

/** One keep-alive pool for the whole run, so a batch reuses its connections. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  keepWasmParserUnoptimised();
  return new Agent({
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? null,
  });
}
