/*
 * Every way an exchange can fail, sorted by what it means for money: the request surely never
 * left, or it may have reached the gateway. Both transports classify their errors here.
 */
import { BodyTooLargeError, sampleOf } from './read-answer.js';

/**
 * One form POST and its answer, with every way it can go wrong sorted into two kinds that
 * matter for money: the request surely never left (`notSent`), or it may have reached the
 * gateway (`maybeSent`). The caller decides what each means for its operation.
 */
export type ExchangeFailureKind = 'notSent' | 'maybeSent';

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
