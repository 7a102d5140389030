// Every way an exchange can fail, sorted by what it means for money: the request surely never left,
// or it may have reached the gateway.

import type { ExchangeProblem } from '../protocol/gateway-fault.js';
import { BodyTooLargeError, sampleOf } from './read-answer.js';

/** One form POST and its answer, with every way it can go wrong sorted into two kinds that
 * matter for money: the request surely never left (`notSent`), or it may have reached the
 * gateway (`maybeSent`). The caller decides what each means for its operation. */
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

/** A proxy's refusal of an absolute-URI request (407); a refused tunnel is Node's ERR_PROXY_TUNNEL. */
export class ProxyRefusalError extends Error {
  readonly code = 'ERR_PROXY_TUNNEL';
  constructor(readonly statusCode: number) {
    super(`the proxy answered ${statusCode}`);
    this.name = 'ProxyRefusalError';
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A proxy that refused to open a tunnel or asked for credentials (407) never passed the request on. */
function proxyRefusal(error: unknown): ExchangeProblem {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (status === 407) return { kind: 'proxyAuth' };
  if (typeof status === 'number') return { kind: 'proxyTunnel', status: String(status) };
  // The tunnel timed out or was closed before it opened.
  return (error as { proxyTunnelTimeout?: unknown }).proxyTunnelTimeout
    ? { kind: 'timedOutConnecting' }
    : { kind: 'closed' };
}

function problemOf(error: unknown, timeoutMs: number, connected: boolean): ExchangeProblem {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return connected ? { kind: 'noAnswerWithin', ms: timeoutMs } : { kind: 'couldNotConnectWithin', ms: timeoutMs };
  }
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'interrupted' };
  const code = errorCode(error);
  if (code !== undefined && certificateCodes.has(code))
    return {
      kind: 'certificate',
      otherHost: code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH',
      code,
    };
  switch (code) {
    case 'ERR_PROXY_TUNNEL':
      return proxyRefusal(error);
    case 'ECONNREFUSED':
      return { kind: 'refused' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { kind: 'hostNotFound' };
    case 'ECONNRESET':
    case 'EPIPE':
      return { kind: 'closed' };
    case 'ETIMEDOUT':
      return { kind: connected ? 'timedOutConnected' : 'timedOutConnecting' };
    default:
      if (code?.startsWith('HPE_')) return { kind: 'notHttp', code };
      return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
  }
}

/** What a failed exchange means, decided here alone: `connected` says whether the request could
 * have left (its socket connected, and for TLS verified); until then nothing was sent, from then
 * on it may have been. `contentType` is the answer's, when its head arrived, to decode the sample by. */
export function exchangeFailureOf(
  error: unknown,
  options: { timeoutMs: number; connected: boolean; chunks: readonly Buffer[]; contentType?: string | undefined },
): Error {
  if (error instanceof BodyTooLargeError) return error;
  return new ExchangeFailure(
    options.connected ? 'maybeSent' : 'notSent',
    problemOf(error, options.timeoutMs, options.connected),
    {
      cause: error,
      bodySample: options.chunks.length > 0 ? sampleOf(options.chunks, options.contentType) : undefined,
      timedOut: error instanceof Error && error.name === 'TimeoutError',
    },
  );
}
