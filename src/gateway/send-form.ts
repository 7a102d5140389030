import type { RecordedExchange } from '../protocol/cassette.js';
import { encodeForm, type FormField, maskForm } from '../protocol/form.js';
import type { ExchangeProblem } from '../protocol/gateway-fault.js';
import { problemOf } from './exchange-errors.js';
import type { HttpAnswer, Transport } from './http.js';

export type Operation = 'AccountCheck' | 'Payment' | 'Status';

/** What --verbose shows; the password never reaches it (forms are masked, bodies redacted). */
export type ExchangeEvent =
  | { direction: 'request'; operation: Operation; url: string; form: FormField[] }
  | { direction: 'response'; operation: Operation; statusCode: number; body: string; elapsedMs: number }
  | { direction: 'failure'; operation: Operation; problem: ExchangeProblem; elapsedMs: number };

/** Where a form goes and who watches it: the gateway client's side of one exchange. */
export interface FormRoute {
  transport: Transport;
  endpoint: string;
  timeoutMs: number;
  maxBodyBytes: number;
  redact: (text: string) => string;
  onExchange?: ((event: ExchangeEvent) => void) | undefined;
  /** --record: each answered exchange, as sent and as it arrived (recorder.ts); never fails one. */
  recorder?: { record(exchange: RecordedExchange): void } | undefined;
}

/** Posts one form and hands the answer, or the failure, to --verbose and --record on its way. */
export async function sendForm(
  route: FormRoute,
  operation: Operation,
  form: FormField[],
  signal?: AbortSignal,
): Promise<HttpAnswer> {
  const { onExchange, redact } = route;
  // Timed only for a listener (--verbose): the first touch of `performance` loads Node's perf_hooks.
  const started = onExchange === undefined ? 0 : performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  onExchange?.({ direction: 'request', operation, url: route.endpoint, form: maskForm(form) });
  try {
    const answer = await route.transport.post(route.endpoint, encodeForm(form), {
      timeoutMs: route.timeoutMs,
      maxBodyBytes: route.maxBodyBytes,
      ...(signal ? { signal } : {}),
    });
    const { statusCode, contentType, bytes, body } = answer;
    route.recorder?.record({ form, status: statusCode, contentType, bytes, text: body });
    onExchange?.({ direction: 'response', operation, statusCode, body: redact(body), elapsedMs: elapsed() });
    return answer;
  } catch (error) {
    if (onExchange !== undefined) {
      const problem = problemOf(error);
      onExchange({
        direction: 'failure',
        operation,
        problem: problem.kind === 'other' ? { kind: 'other', message: redact(problem.message) } : problem,
        elapsedMs: elapsed(),
      });
    }
    throw error;
  }
}
