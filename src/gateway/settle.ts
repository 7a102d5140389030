import { setTimeout as sleep } from 'node:timers/promises';
import { AgentpayError, GatewayUnreachableError, PaymentOutcomeUnknownError, ReplayMissError } from '../errors.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import {
  describesTransaction,
  isFinalState,
  speaksOfPayment,
  type TransactionView,
  unknownView,
  viewOfAnswer,
  viewOfStatusAnswer,
} from '../protocol/transaction-view.js';
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

/** The Payment's answer as a view; a lost answer is an unknown view with the reason. A view of a
 * Payment that Ctrl+C or SIGTERM cut short joins `cutShort`: it says so already. */
async function sendPayment(
  client: GatewayClient,
  input: PaymentInput,
  codes: CodeTable,
  signal: AbortSignal | undefined,
  cutShort: WeakSet<TransactionView>,
): Promise<TransactionView> {
  try {
    return viewOfAnswer(await client.payment(input, signal), input, codes);
  } catch (error) {
    if (!(error instanceof PaymentOutcomeUnknownError)) throw error;
    const view = unknownView(input, 'Payment', error.reason);
    if (error.fault !== undefined && 'problem' in error.fault && error.fault.problem.kind === 'interrupted')
      cutShort.add(view);
    return view;
  }
}

/** Why a look-up (or the re-send after one) told us nothing. */
function failureReason(error: AgentpayError, resending: boolean): string {
  if (resending)
    return `the same Payment could not be sent again (${error.message}); the first one's outcome is still unknown`;
  return error instanceof PaymentOutcomeUnknownError ? error.reason : error.message;
}

/** Sends a Payment and asks Status (same TransactionID, backoff) while the answer is lost, in progress or
 * unclassified; "not found" before any answer sends the same Payment again (spec 3 rule 2), never a new id.
 * Final only when the gateway says so, else its last word stands; errors proving nothing left are thrown. */
export async function payAndSettle(
  client: GatewayClient,
  input: PaymentInput,
  policy: SettlePolicy,
): Promise<SettledPayment> {
  const { codes, signal } = policy;
  // Decided on the fault, not on the reason's words: those are in the user's language.
  const cutShort = new WeakSet<TransactionView>();
  const first = await sendPayment(client, input, codes, signal, cutShort);
  if (isFinalState(first.state)) return { view: first, settledBy: 'payment' };
  // What the gateway said of the payment itself, if anything; else the latest we know.
  let known = first.status === null ? undefined : first;
  let latest = first;
  let settledBy: SettledPayment['settledBy'] = 'payment';
  const current = () => known ?? latest;
  const outcome = (): SettledPayment => {
    const view = current();
    if (!signal?.aborted || view.status !== null || cutShort.has(view)) return { view, settledBy };
    return { view: unknownView(input, 'Payment', `interrupted while settling; last: ${view.message}`), settledBy };
  };
  if (signal?.aborted) return outcome();
  policy.onEvent?.(known === undefined ? { kind: 'lost', reason: first.message } : { kind: 'open', view: first });

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
    let resending = false;
    try {
      const answer = await client.status(input.transactionId);
      settledBy = 'settle';
      if (classifyCode(answer.status, codes) === 'notFound' && known === undefined && !resent) {
        // The gateway has no such payment: the first one never arrived (or not yet). Sending
        // the same TransactionID again cannot pay twice.
        resent = resending = true;
        policy.onEvent?.({ kind: 'not-found-resend' });
        const again = await sendPayment(client, input, codes, signal, cutShort);
        if (again.status === null) latest = again;
        else known = again;
      } else {
        const view = viewOfStatusAnswer(answer, input, codes);
        // The gateway's answer to the Payment gives way only to a Status that describes the
        // transaction: an unclassified code without it may be "not found" in another word.
        if (speaksOfPayment(view, codes) && (known === undefined || describesTransaction(answer))) known = view;
        else if (known === undefined) latest = view;
      }
      if (isFinalState(current().state)) return outcome();
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      settledBy = 'settle';
      // A replay with no recording of this Status will not have one on the next poll either.
      if (error instanceof ReplayMissError) break;
      // A re-send that provably never left is no re-send: it may be tried again.
      if (resending && error instanceof GatewayUnreachableError) resent = false;
      // The look-up failed: what the gateway said last still stands; a lost answer stays lost.
      if (known === undefined && latest.status === null)
        latest = unknownView(input, 'Payment', failureReason(error, resending));
    }
  }
  return outcome();
}
