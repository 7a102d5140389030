import { setTimeout as sleep } from 'node:timers/promises';
import { AgentpayError, PaymentOutcomeUnknownError } from '../errors.js';
import { classifyCode, type CodeTable } from '../protocol/codes.js';
import { isFinalState, unknownView, viewOfAnswer, type TransactionView } from '../protocol/transaction-view.js';
import type { GatewayClient, PaymentInput } from './client.js';

export interface SettlePolicy {
  /** Status look-ups after an answer that is not final, before leaving it open. */
  attempts: number;
  /** First wait before a look-up; doubles each time, up to maxDelayMs. */
  delayMs: number;
  maxDelayMs?: number;
  /** This gateway's codes: only 10 and a failedCodes code make a payment final. */
  codes: CodeTable;
  /** Aborted (Ctrl+C) stops settling at once; the outcome stays open. */
  signal?: AbortSignal | undefined;
  onEvent?: (event: SettleEvent) => void;
}

export type SettleEvent =
  | { kind: 'lost'; reason: string }
  /** The gateway answered, with a code that is not final (pending, or not classified). */
  | { kind: 'open'; view: TransactionView }
  | { kind: 'lookup'; attempt: number; of: number }
  | { kind: 'not-found-resend' };

export interface SettledPayment {
  view: TransactionView;
  /** How the last word was had: the Payment's own answer, or Status (or a resend) after it. */
  settledBy: 'payment' | 'settle';
}

/** The Payment's answer as a view; a lost answer is an unknown view with the reason. */
async function sendPayment(client: GatewayClient, input: PaymentInput, codes: CodeTable, signal: AbortSignal | undefined): Promise<TransactionView> {
  try {
    return viewOfAnswer(await client.payment(input, signal), input, codes);
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknownError)) throw error;
    return unknownView(input, 'Payment', error.reason);
  }
}

/**
 * Sends a Payment and settles it until the gateway gives a final answer: Status for the same
 * TransactionID with backoff, whenever the answer was lost, in progress, or a code this
 * gateway's table does not classify. If Status says "not found" (a notFoundCodes code), the
 * first one may never have arrived: the same Payment is sent once more (spec 3 rule 2: a
 * repeated TransactionID creates nothing new). Never a new TransactionID. Success or failure
 * only when the gateway said so; otherwise the last thing it said stands (pending, unknown).
 * Errors that prove nothing was sent (connection refused) are thrown.
 */
export async function payAndSettle(client: GatewayClient, input: PaymentInput, policy: SettlePolicy): Promise<SettledPayment> {
  const { codes, signal } = policy;
  let view = await sendPayment(client, input, codes, signal);
  if (isFinalState(view.state)) return { view, settledBy: 'payment' };
  let settledBy: SettledPayment['settledBy'] = 'payment';
  const interrupted = (last: string) => (view.status === null ? unknownView(input, 'Payment', `interrupted before the answer arrived; last: ${last}`) : view);
  if (signal?.aborted) return { view: interrupted(view.message), settledBy };
  policy.onEvent?.(view.status === null ? { kind: 'lost', reason: view.message } : { kind: 'open', view });

  let resent = false;
  let delay = policy.delayMs;
  for (let attempt = 1; attempt <= policy.attempts && !signal?.aborted; attempt++) {
    try {
      await sleep(delay, undefined, signal ? { signal } : {});
    } catch {
      break;
    }
    delay = Math.min(delay * 2, policy.maxDelayMs ?? 10_000);
    policy.onEvent?.({ kind: 'lookup', attempt, of: policy.attempts });
    try {
      const answer = await client.status(input.transactionId);
      if (classifyCode(answer.status, codes) === 'notFound' && !resent) {
        // The gateway has no such payment: the first one never arrived (or not yet). Sending
        // the same TransactionID again cannot pay twice.
        resent = true;
        policy.onEvent?.({ kind: 'not-found-resend' });
        view = await sendPayment(client, input, codes, signal);
      } else {
        view = viewOfAnswer(answer, input, codes);
      }
      settledBy = 'settle';
      if (isFinalState(view.state)) return { view, settledBy };
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      // The look-up failed: what the gateway said last still stands; a lost answer stays lost.
      if (view.status === null) view = unknownView(input, 'Payment', error instanceof PaymentOutcomeUnknownError ? error.reason : error.message);
    }
  }
  return { view: signal?.aborted ? interrupted(view.message) : view, settledBy };
}
