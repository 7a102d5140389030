import { setTimeout as sleep } from 'node:timers/promises';
import { AgentpayError, PaymentOutcomeUnknownError } from '../errors.js';
import { unknownView, viewOfAnswer, type TransactionView } from '../protocol/transaction-view.js';
import type { GatewayClient, PaymentInput } from './client.js';

export interface SettlePolicy {
  /** Status look-ups after a lost answer before giving up as "unknown". */
  attempts: number;
  /** First wait before a look-up; doubles each time, up to maxDelayMs. */
  delayMs: number;
  maxDelayMs?: number;
  pendingCodes: ReadonlySet<string>;
  /** Status codes meaning the gateway does not know the TransactionID. */
  notFoundCodes: ReadonlySet<string>;
  /** Aborted (Ctrl+C) stops settling at once; the outcome stays unknown. */
  signal?: AbortSignal | undefined;
  onEvent?: (event: SettleEvent) => void;
}

export type SettleEvent =
  | { kind: 'lost'; reason: string }
  | { kind: 'lookup'; attempt: number; of: number }
  | { kind: 'not-found-resend' };

export interface SettledPayment {
  view: TransactionView;
  /** How the last word was had: the Payment's own answer, or Status after a lost one. */
  settledBy: 'payment' | 'settle';
}

/**
 * Sends a Payment and, if its answer is lost, settles it: Status for the same TransactionID
 * with backoff; if the gateway does not know it, the same Payment again (spec 3 rule 2: a
 * repeated TransactionID creates nothing new) and Status again. Success or failure is
 * reported only when the gateway said so; otherwise the view is "unknown". Never a new
 * TransactionID. Errors that prove nothing was sent (connection refused) are thrown.
 */
export async function payAndSettle(client: GatewayClient, input: PaymentInput, policy: SettlePolicy): Promise<SettledPayment> {
  let reason: string;
  try {
    return { view: viewOfAnswer(await client.payment(input, policy.signal), input, policy.pendingCodes), settledBy: 'payment' };
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknownError)) throw error;
    reason = error.reason;
  }
  if (policy.signal?.aborted) return { view: unknownView(input, 'Payment', 'interrupted (Ctrl+C) before the answer arrived'), settledBy: 'settle' };
  policy.onEvent?.({ kind: 'lost', reason });
  let delay = policy.delayMs;
  for (let attempt = 1; attempt <= policy.attempts && !policy.signal?.aborted; attempt++) {
    try {
      await sleep(delay, undefined, policy.signal ? { signal: policy.signal } : {});
    } catch {
      break;
    }
    delay = Math.min(delay * 2, policy.maxDelayMs ?? 10_000);
    policy.onEvent?.({ kind: 'lookup', attempt, of: policy.attempts });
    try {
      const answer = await client.status(input.transactionId);
      if (!policy.notFoundCodes.has(answer.status)) {
        return { view: viewOfAnswer(answer, input, policy.pendingCodes), settledBy: 'settle' };
      }
      // The gateway has no such payment: the first one never arrived. Sending the same
      // TransactionID again cannot pay twice.
      policy.onEvent?.({ kind: 'not-found-resend' });
      return { view: viewOfAnswer(await client.payment(input, policy.signal), input, policy.pendingCodes), settledBy: 'settle' };
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      reason = error instanceof PaymentOutcomeUnknownError ? error.reason : error.message;
    }
  }
  return { view: unknownView(input, 'Payment', policy.signal?.aborted ? `interrupted (Ctrl+C) while settling; last: ${reason}` : reason), settledBy: 'settle' };
}
