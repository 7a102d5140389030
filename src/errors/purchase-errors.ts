import { t } from '../run-scope.js';
import { UsageError } from './agentpay-error.js';

/** The consequence a failure before a Payment could leave states: what execute-payment looks for. */
export const noPaymentSent = (): string => t().errors.noPaymentSent;

/** The voucher a purchase names cannot be had, found before anything is sent: `reason` alone (a
 * bulk row states it under its column) and the field it is about; the message adds that no payment was sent. */
export class VoucherChoiceError extends UsageError {
  override name = 'VoucherChoiceError';
  readonly reason: string;
  readonly field: 'amount' | 'invoice';
  constructor(reason: string, field: 'amount' | 'invoice', options: { hint?: string; rowReason?: string } = {}) {
    super(`${reason}; ${noPaymentSent()}`, options.hint === undefined ? {} : { hint: options.hint });
    this.reason = options.rowReason ?? reason;
    this.field = field;
  }
}

/** A dynamic service whose voucher list is empty for this account now: nothing can be bought and
 * nothing was sent. Not a static service (vouchers.ts), so never paid with a free amount. */
export class EmptyVoucherListError extends VoucherChoiceError {
  override name = 'EmptyVoucherListError';
}
