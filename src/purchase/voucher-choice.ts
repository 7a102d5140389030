import { UsageError, VoucherChoiceError } from '../errors.js';
import type { GatewayClient, PaymentInput } from '../gateway/client.js';
import type { PurchaseOptions } from '../options/purchase.js';
import type { Voucher, VoucherList } from '../protocol/vouchers.js';
import { t } from '../run-scope.js';
import { checkPurchase, emptyVoucherListError } from './account-check.js';

// What is paid for: a voucher passed whole so its InvoiceId and OrderAmount cannot part (spec 4.2), or an
// amount for a static service (spec 4.3).
export type PurchaseChoice = { kind: 'voucher'; voucher: Voucher } | { kind: 'amount'; amount: string };

/** A purchase as asked for: the voucher by InvoiceId or by position, and/or an amount. */
export interface PurchaseRequest extends PurchaseOptions {
  invoiceId?: string | undefined;
  /** The voucher by its position in the list (`Invoice-<n>`, spec 2.4) instead of its InvoiceId. */
  invoicePosition?: number | undefined;
  amount?: string | undefined;
}

// spec 4.2: the voucher `request.invoiceId` (or `invoicePosition`) names; a typed amount must be its
// OrderAmount as the same string (2497 is not 2497.00).
export function voucherOf(vouchers: VoucherList, request: PurchaseRequest): Voucher {
  if (vouchers?.length === 0) throw emptyVoucherListError(request);
  const named = (vouchers ?? []).filter((v) =>
    request.invoiceId === undefined ? v.position === request.invoicePosition : v.invoiceId === request.invoiceId,
  );
  // One InvoiceId for two vouchers (some gateways list a service's amounts so): the Payment tells them apart
  // by Amount, so --amount names one; without it, the first would be a guess.
  const voucher = named.length > 1 ? named.find((v) => v.orderAmount === request.amount) : named[0];
  if (named.length > 1 && voucher === undefined) {
    const amounts = named.map((v) => `${v.orderAmount} ${v.name}`).join('; ');
    throw new VoucherChoiceError(t().purchase.invoiceTwice(named[0]!.invoiceId, request.service, amounts), 'invoice', {
      hint: t().purchase.invoiceTwiceHint,
    });
  }
  if (!voucher) {
    const known = vouchers?.map((v) => v.invoiceId).join(', ');
    const wanted =
      request.invoiceId === undefined ? { position: request.invoicePosition ?? 0 } : { invoiceId: request.invoiceId };
    throw new VoucherChoiceError(t().purchase.invoiceNotInList(wanted, request.service), 'invoice', {
      hint: known ? t().purchase.invoiceIdsThere(known) : t().purchase.noListPayWithAmount,
    });
  }
  if (request.amount !== undefined && request.amount !== voucher.orderAmount) {
    const { amount } = request;
    const said = (flag?: string) =>
      t().purchase.amountNotOrderAmount(amount, voucher.invoiceId, voucher.orderAmount, flag);
    throw new VoucherChoiceError(said('--amount'), 'amount', {
      hint: t().purchase.amountsMustMatch(voucher.orderAmount),
      rowReason: said(),
    });
  }
  return voucher;
}

// A request's choice: a dynamic voucher from a fresh AccountCheck (spec 4.2), a static amount as given (4.3).
export async function resolvePurchase(client: GatewayClient, request: PurchaseRequest): Promise<PurchaseChoice> {
  if (request.invoiceId === undefined && request.invoicePosition === undefined) {
    if (request.amount === undefined) {
      throw new UsageError(t().options.invoiceOrAmount);
    }
    return { kind: 'amount', amount: request.amount };
  }
  const { vouchers } = await checkPurchase(client, request);
  return { kind: 'voucher', voucher: voucherOf(vouchers, request) };
}

/** The Payment for a chosen purchase: a voucher's own InvoiceId and OrderAmount, or a static amount alone. */
export function paymentInputOf(purchase: PurchaseOptions, choice: PurchaseChoice, transactionId: string): PaymentInput {
  const { service, account, currency } = purchase;
  return choice.kind === 'voucher'
    ? {
        service,
        account,
        currency,
        transactionId,
        amount: choice.voucher.orderAmount,
        invoiceId: choice.voucher.invoiceId,
      }
    : { service, account, currency, transactionId, amount: choice.amount, invoiceId: undefined };
}
