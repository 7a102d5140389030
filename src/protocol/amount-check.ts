import { successStatus } from './codes.js';
import type { GatewayAnswer } from './envelope.js';
import { sameDecimal } from './money.js';

/**
 * A success answer whose reported Amount is not the decimal that was sent. Spec 2.3 types the
 * reported Amount as a number, so `1500` for the `1500.00` sent is the same amount; `24970`
 * for `2497.00` is not, and a person should look before trusting the receipt. The state stays
 * what the gateway said: the warning never makes a payment failed or unknown.
 *
 * Only Payment and Status answers carry an amount that was paid; an AccountCheck moves no
 * money. A Payment answer that leaves ResponseType out is still checked.
 */
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
