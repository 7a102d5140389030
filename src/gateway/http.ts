import { Agent, request, type Dispatcher } from 'undici';

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

async function readLimited(body: AsyncIterable<Buffer>, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  // A UTF-8 decode that drops a leading byte order mark, as browsers and fetch do: some
  // gateways put one before their JSON, and JSON parsers refuse it.
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * POSTs a form body. Resolves with any HTTP answer that arrived whole (the caller judges
 * status codes); rejects with ExchangeFailure when none did, or BodyTooLargeError.
 */
export async function postForm(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
  // One deadline for the whole exchange, so a body that trickles forever still ends.
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
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
    const body = await readLimited(response.body, options.maxBodyBytes);
    return { statusCode: response.statusCode, body };
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    const kind: ExchangeFailureKind = connectPhaseCodes.has(errorCode(error) ?? '') ? 'notSent' : 'maybeSent';
    throw new ExchangeFailure(kind, describe(error, options.timeoutMs), { cause: error });
  }
}

export interface DispatcherOptions {
  timeoutMs: number;
  connections?: number | undefined;
}

/** One keep-alive pool for the whole run, so a batch reuses its connections. */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new Agent({
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? null,
  });
}
