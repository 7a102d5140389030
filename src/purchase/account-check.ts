import { EmptyVoucherListError, GatewayRefusedError } from '../errors.js';
import type { AccountCheckResult, GatewayClient, PurchaseInput } from '../gateway/client.js';
import type { PurchaseOptions } from '../options/purchase.js';
import { emptyCodeTable, successStatus } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import { viewOfAnswer } from '../protocol/transaction-view.js';
import type { VoucherList } from '../protocol/vouchers.js';
import { t } from '../run-scope.js';

// spec 4.1 for a purchase: the vouchers from a fresh AccountCheck; a refusal is a GatewayRefusedError. For a
// service the desk declares static, a refusal or an empty list means no list (`vouchers` null, `refused` set
// after a refusal): spec 4.1 covers dynamic vouchers only, and the Payment decides.
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

// The `check --json` line (and a scenario's check record) without `envelope`: the transaction shape (no
// serviceCurrency, spec 2.3) and the vouchers. AccountCheck moves no money: anything but 10 is a refusal.
export function accountCheckLine({ answer, vouchers, transactionId }: AccountCheckResult, purchase: PurchaseInput) {
  const { serviceCurrency: _notInAccountCheck, ...view } = viewOfAnswer(
    answer,
    { transactionId, ...purchase },
    emptyCodeTable,
  );
  return { ...view, state: answer.status === successStatus ? ('success' as const) : ('failed' as const), vouchers };
}
