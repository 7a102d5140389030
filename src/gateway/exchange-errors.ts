import { GatewayProtocolError, GatewayUnreachableError } from '../errors.js';
import type { ExchangeProblem, GatewayFault, NotUnderstoodFault } from '../protocol/gateway-fault.js';
import { ExchangeFailure } from './exchange-failure.js';
import type { HttpAnswer } from './http.js';
import { answerSampleBytes, BodyTooLargeError } from './read-answer.js';

/** Where the client's requests go, and how it blanks its secrets out of what it shows. */
export interface ExchangeErrorContext {
  endpoint: string;
  routeDescription: string | undefined;
  redact: (text: string) => string;
}

/** The typed errors of a failed or not understood exchange, as the gateway client throws them:
 * each names the endpoint and route, and every body sample in them is redacted first. */
export class ExchangeErrors {
  private readonly context: ExchangeErrorContext;

  constructor(context: ExchangeErrorContext) {
    this.context = context;
  }

  unreachable(error: unknown, payment: { noPaymentSent: boolean }): GatewayUnreachableError {
    return new GatewayUnreachableError(this.brokenExchange(error, payment), {
      cause: error,
      bodySample: this.sampleOf(error),
    });
  }

  /** An exchange that broke: where, why, and whether a Payment provably never left. */
  brokenExchange(
    error: unknown,
    payment: { noPaymentSent: boolean },
  ): Extract<GatewayFault, { problem: ExchangeProblem }> {
    const problem = problemOf(error);
    return {
      kind: error instanceof ExchangeFailure && error.timedOut ? 'timedOut' : 'unreachable',
      endpoint: this.context.endpoint,
      // Words of an error we did not classify may quote what came in; a lost payment keeps them.
      problem: problem.kind === 'other' ? { kind: 'other', message: this.context.redact(problem.message) } : problem,
      noPaymentSent: payment.noPaymentSent,
      route: this.context.routeDescription,
    };
  }

  tooLarge(error: BodyTooLargeError): NotUnderstoodFault {
    return { kind: 'tooLarge', detail: error.message };
  }

  /** `answer`: the HTTP answer whose body was no envelope; none when the envelope's content was at fault. */
  notUnderstood(error: unknown, answer: HttpAnswer | undefined): GatewayProtocolError {
    if (answer === undefined)
      return new GatewayProtocolError({ kind: 'notUnderstood', detail: this.context.redact((error as Error).message) });
    return new GatewayProtocolError(this.notUnderstoodFault(error, answer), {
      cause: error,
      bodySample: this.sample(answer.body),
    });
  }

  /** Why an answer is not understood; with its HTTP status (and plain text) when that is not 2xx.
   * Redacted: the reason quotes what the answer held, and an unknown payment's reason is kept. */
  notUnderstoodFault(error: unknown, answer: HttpAnswer): NotUnderstoodFault {
    const detail = this.context.redact((error as Error).message);
    if (answer.statusCode >= 200 && answer.statusCode < 300) return { kind: 'notUnderstood', detail };
    const plain = /^text\/plain\b/i.test(answer.contentType ?? '');
    const firstLine = plain ? this.sample(answer.body.trim()).split(/\r?\n/)[0]?.trim() : undefined;
    return { kind: 'notUnderstood', detail, http: { status: answer.statusCode, text: firstLine || undefined } };
  }

  /** The first bytes of a body, with every secret blanked, for --verbose. */
  sample(body: string): string {
    // Redact before cutting: a password straddling the cut would otherwise show its first part.
    return this.context.redact(body).slice(0, answerSampleBytes);
  }

  sampleOf(error: unknown): string | undefined {
    const sample =
      error instanceof ExchangeFailure || error instanceof BodyTooLargeError ? error.bodySample : undefined;
    return sample === undefined ? undefined : this.context.redact(sample);
  }
}

/** What broke an exchange: the transport's classification, or the words of an error it did not classify. */
export function problemOf(error: unknown): ExchangeProblem {
  if (error instanceof ExchangeFailure) return error.problem;
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}
