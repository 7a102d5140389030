import { EmptyVoucherListError, GatewayRefusedError } from '../errors.js';
import type { AccountCheckResult, GatewayClient, PurchaseInput } from '../gateway/client.js';
import { t } from '../i18n/current.js';
import type { PurchaseOptions } from '../options/purchase.js';
import { emptyCodeTable, successStatus } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import { viewOfAnswer } from '../protocol/transaction-view.js';
import type { VoucherList } from '../protocol/vouchers.js';

/**
 * spec 4.1, for a purchase: the service's vouchers for this account, from a fresh
 * AccountCheck. A refused check is a GatewayRefusedError: nothing is paid after it.
 */
export async function checkPurchase(client: GatewayClient, purchase: PurchaseOptions): Promise<{ answer: GatewayAnswer; vouchers: VoucherList }> {
  const { answer, vouchers } = await client.accountCheck({ service: purchase.service, account: purchase.account, amount: '0', currency: purchase.currency });
  if (answer.status !== successStatus) {
    throw new GatewayRefusedError(t().purchase.checkRefusedNothingSent(answer.message || t().purchase.noMessage, answer.status), answer.status);
  }
  return { answer, vouchers };
}

/** A dynamic service with nothing for this account now (vouchers.ts): nothing to pay, nothing sent. */
export function emptyVoucherListError(purchase: Pick<PurchaseOptions, 'service' | 'account'>): EmptyVoucherListError {
  return new EmptyVoucherListError(t().purchase.emptyList(purchase.service, purchase.account), {
    hint: t().purchase.emptyListHint,
  });
}

/**
 * The `check --json` line (and a scenario's check record) without its `envelope`: the
 * transaction shape (no serviceCurrency, spec 2.3) and the vouchers. AccountCheck moves no
 * money: anything but 10 is a refusal, whatever the code table says.
 */
export function accountCheckLine({ answer, vouchers, transactionId }: AccountCheckResult, purchase: PurchaseInput) {
  const { serviceCurrency: _notInAccountCheck, ...view } = viewOfAnswer(answer, { transactionId, ...purchase }, emptyCodeTable);
  return { ...view, state: answer.status === successStatus ? ('success' as const) : ('failed' as const), vouchers };
}
