import { AgentpayError, type ExitCodeValue } from '../errors.js';
import type { GatewayClient } from '../gateway/client.js';
import type { CodeTable } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import { isFinalState, type TransactionView, unknownView, viewOfStatusAnswer } from '../protocol/transaction-view.js';
import { exitCodeOfState } from './outcome.js';

export interface LookUpResult {
  view: TransactionView;
  /** The gateway's last answer the view was made of; none when the look-up failed. */
  answer?: GatewayAnswer;
  exitCode: ExitCodeValue;
  /** Set when the look-up itself failed (unreachable, not understood, bad input line). */
  error?: AgentpayError;
  /** A line of the file that is not a transaction id: nothing was looked up. */
  notAnId?: true;
}

/** Polling goes on while a transaction is not final (status --wait), or only while in progress (buy). */
type PollWhile = 'open' | 'pending';

/** Waits `ms`; false when `signal` aborted first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Status for one id (spec 4.4); with a wait, polls one not final (or in progress, `pollWhile`) with backoff from
// `firstDelayMs` (the settle delay) until it is, time is out, or `signal` aborts: then the last answer stands.
export async function lookUpStatus(
  client: GatewayClient,
  transactionId: string,
  codes: CodeTable,
  waitUntil: number,
  options: { signal?: AbortSignal | undefined; pollWhile?: PollWhile; firstDelayMs: number },
): Promise<LookUpResult> {
  const { signal, pollWhile = 'open', firstDelayMs } = options;
  const polling = (view: TransactionView) =>
    pollWhile === 'pending' ? view.state === 'pending' : !isFinalState(view.state);
  // Never back to back (a settle delay of 0), never a first wait longer than the longest.
  let delayMs = Math.min(Math.max(firstDelayMs, 10), 5_000);
  for (;;) {
    let answer: GatewayAnswer;
    try {
      answer = await client.status(transactionId);
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      return { view: unknownView({ transactionId }, 'Status', error.message), exitCode: error.exitCode, error };
    }
    const view = viewOfStatusAnswer(answer, { transactionId }, codes);
    const remaining = waitUntil - Date.now();
    const done = { view, answer, exitCode: exitCodeOfState[view.state] };
    if (!polling(view) || remaining <= 0 || signal?.aborted) return done;
    if (!(await pause(Math.min(delayMs, remaining), signal))) return done;
    delayMs = Math.min(delayMs * 1.6, 5_000);
  }
}
