import { successStatus } from './codes.js';
import type { GatewayAnswer } from './envelope.js';
import { sameDecimal } from './money.js';

// A success answer whose Amount is not the decimal sent: spec 2.3 types it as a number, so `1500` for `1500.00`
// matches and `24970` for `2497.00` does not. Only Payment and Status answers are checked; the state stays
// what the gateway said (a warning never makes a payment failed or unknown).
export function amountWarnings(answer: GatewayAnswer, sent: { amount?: string | undefined }): string[] {
  if (answer.status !== successStatus || answer.type === 'AccountCheck') return [];
  if (answer.amount === undefined || sent.amount === undefined || sameDecimal(answer.amount, sent.amount)) return [];
  return [
    `the gateway reports Amount ${answer.amount}, not the ${sent.amount} that was sent: ask the gateway which amount was charged`,
  ];
}

/** The view's optional `warnings` field: absent when there is nothing to say. */
export function warningsField(answer: GatewayAnswer, sent: { amount?: string | undefined }): { warnings?: string[] } {
  const warnings = amountWarnings(answer, sent);
  return warnings.length > 0 ? { warnings } : {};
}
