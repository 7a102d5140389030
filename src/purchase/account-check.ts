import { EmptyVoucherListError, GatewayRefusedError } from '../errors.js';
import type { AccountCheckResult, GatewayClient, PurchaseInput } from '../gateway/client.js';
import type { PurchaseOptions } from '../options/purchase.js';
import { emptyCodeTable, successStatus } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import { viewOfAnswer } from '../protocol/transaction-view.js';
import type { VoucherList } from '../protocol/vouchers.js';
import { t } from '../run-scope.js';

/**
 * spec 4.1, for a purchase: the service's vouchers for this account, from a fresh
 * AccountCheck. A refused check is a GatewayRefusedError: nothing is paid after it.
 *
 * Except for a service the desk declares static (a profile's `"kind": "static"`): spec 4.1
 * describes the check for dynamic vouchers only, and a real gateway may refuse it for a static
 * service ("Service has no voucher list"). Its refusal, and an empty list, mean no voucher
 * list (`vouchers` null, `refused` true after a refusal, to be shown); the Payment decides.
 */
export async function checkPurchase(
  client: GatewayClient,
  purchase: PurchaseOptions,
  { declaredStatic = false }: { declaredStatic?: boolean } = {},
): Promise<{ answer: GatewayAnswer; vouchers: VoucherList; refused: boolean }> {
  const { answer, vouchers } = await client.accountCheck({
    service: purchase.service,
    account: purchase.account,
    amount: '0',
    currency: purchase.currency,
  });
  if (answer.status !== successStatus) {
    if (declaredStatic) return { answer, vouchers: null, refused: true };
    throw new GatewayRefusedError(
      t().purchase.checkRefusedNothingSent(answer.message || t().purchase.noMessage, answer.status),
      answer.status,
    );
  }
  return { answer, vouchers: declaredStatic && vouchers?.length === 0 ? null : vouchers, refused: false };
}

/** A dynamic service with nothing for this account now (vouchers.ts): nothing to pay, nothing sent. */
export function emptyVoucherListError(purchase: Pick<PurchaseOptions, 'service' | 'account'>): EmptyVoucherListError {
  return new EmptyVoucherListError(t().purchase.emptyList(purchase.service, purchase.account), 'invoice', {
    hint: t().purchase.emptyListHint,
  });
}

/**
 * The `check --json` line (and a scenario's check record) without its `envelope`: the
 * transaction shape (no serviceCurrency, spec 2.3) and the vouchers. AccountCheck moves no
 * money: anything but 10 is a refusal, whatever the code table says.
 */
export function accountCheckLine({ answer, vouchers, transactionId }: AccountCheckResult, purchase: PurchaseInput) {
  const { serviceCurrency: _notInAccountCheck, ...view } = viewOfAnswer(
    answer,
    { transactionId, ...purchase },
    emptyCodeTable,
  );
  return { ...view, state: answer.status === successStatus ? ('success' as const) : ('failed' as const), vouchers };
}
