/*
 * Every way an exchange can fail, sorted by what it means for money: the request surely never
 * left, or it may have reached the gateway. Both transports classify their errors here.
 */

import type { ExchangeProblem } from '../protocol/gateway-fault.js';
import { BodyTooLargeError, sampleOf } from './read-answer.js';

/**
 * One form POST and its answer, with every way it can go wrong sorted into two kinds that
 * matter for money: the request surely never left (`notSent`), or it may have reached the
 * gateway (`maybeSent`). The caller decides what each means for its operation.
 */
export type ExchangeFailureKind = 'notSent' | 'maybeSent';

export class ExchangeFailure extends Error {
  readonly kind: ExchangeFailureKind;
  /** What broke, as data (i18n/gateway-fault-words.ts says it in words). */
  readonly problem: ExchangeProblem;
  /** The first bytes of a body that began to arrive before the failure, if any. */
  readonly bodySample: string | undefined;
  /** The time-out ran out (connecting, or waiting for the answer). */
  readonly timedOut: boolean;
  constructor(
    kind: ExchangeFailureKind,
    problem: ExchangeProblem,
    options: { cause?: unknown; bodySample?: string | undefined; timedOut?: boolean } = {},
  ) {
    // Never shown to a person (the client turns it into a fault); for a stack trace, the data.
    super(
      problem.kind === 'other' ? problem.message : JSON.stringify(problem),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ExchangeFailure';
    this.kind = kind;
    this.problem = problem;
    this.bodySample = options.bodySample;
    this.timedOut = options.timedOut ?? false;
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
function proxyRefusal(error: unknown): ExchangeProblem | undefined {
  const message = error instanceof Error ? error.message : '';
  const tunnel = /^Proxy response \((\d+)\) !== 200/.exec(message);
  if (tunnel) return { kind: 'proxyTunnel', status: tunnel[1] ?? '' };
  if (message.includes('Proxy Authentication Required (407)')) return { kind: 'proxyAuth' };
  return undefined;
}

/** Whether the failure is the time-out running out: the hint then offers more time. */
function isTimeOut(error: unknown): boolean {
  if (error instanceof Error && error.name === 'TimeoutError') return true;
  return ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'].includes(
    errorCodes(error)[0] ?? '',
  );
}

function problemOf(error: unknown, timeoutMs: number, connected: boolean): ExchangeProblem {
  const codes = errorCodes(error);
  if (error instanceof Error && error.name === 'TimeoutError') {
    return connected ? { kind: 'noAnswerWithin', ms: timeoutMs } : { kind: 'couldNotConnectWithin', ms: timeoutMs };
  }
  const refusal = proxyRefusal(error);
  if (refusal) return refusal;
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'interrupted' };
  const certificate = codes.find((code) => certificateCodes.has(code));
  if (certificate)
    return {
      kind: 'certificate',
      otherHost: certificate === 'ERR_TLS_CERT_ALTNAME_INVALID' || certificate === 'HOSTNAME_MISMATCH',
      code: certificate,
    };
  switch (codes[0]) {
    case 'ECONNREFUSED':
      return { kind: 'refused' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { kind: 'hostNotFound' };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { kind: 'couldNotConnectWithin', ms: timeoutMs };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { kind: 'noAnswerWithin', ms: timeoutMs };
    case 'UND_ERR_SOCKET':
    case 'ECONNRESET':
    case 'EPIPE':
      return { kind: 'closed' };
    case 'ETIMEDOUT':
      return { kind: connected ? 'timedOutConnected' : 'timedOutConnecting' };
    default:
      if (codes[0]?.startsWith('HPE_')) return { kind: 'notHttp', code: codes[0] };
      return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * What a failed exchange means. `connected` says whether the request could have left: false
 * while the connection (and its TLS handshake) was still being made, so nothing was sent;
 * undefined when the transport cannot tell, and the error's codes decide. `contentType` is
 * the answer's, when its headers arrived, to decode the sample by.
 */
export function exchangeFailureOf(
  error: unknown,
  options: {
    timeoutMs: number;
    connected?: boolean | undefined;
    chunks: readonly Buffer[];
    contentType?: string | undefined;
  },
): Error {
  if (error instanceof BodyTooLargeError) return error;
  const notSent =
    options.connected === false ||
    errorCodes(error).some((code) => connectPhaseCodes.has(code)) ||
    proxyRefusal(error) !== undefined;
  return new ExchangeFailure(
    notSent ? 'notSent' : 'maybeSent',
    problemOf(error, options.timeoutMs, options.connected ?? true),
    {
      cause: error,
      bodySample: options.chunks.length > 0 ? sampleOf(options.chunks, options.contentType) : undefined,
      timedOut: isTimeOut(error),
    },
  );
}
