import { EmptyVoucherListError, GatewayRefusedError, PaymentOutcomeUnknownError, TransactionPendingError, UsageError } from '../errors.js';
import { classifyCode, classifyHint, successStatus, type CodeTable } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import type { FormField } from '../protocol/form.js';
import { isRefusedLookUp, type TransactionView } from '../protocol/transaction-view.js';
import type { Voucher, VoucherList } from '../protocol/vouchers.js';
import type { GatewayClient, PaymentInput } from '../gateway/client.js';

/**
 * The one payment path, shared by `pay` and `buy`: resolve the voucher, then send the
 * Payment and turn its answer into a TransactionView.
 */
export interface PurchaseRequest {
  service: string;
  account: string;
  currency: string;
  invoiceId?: string | undefined;
  /** The voucher by its position in the list (`Invoice-<n>`, spec 2.4) instead of its InvoiceId. */
  invoicePosition?: number | undefined;
  amount?: string | undefined;
}

/**
 * spec 4.1, for a purchase: the service's vouchers for this account, from a fresh
 * AccountCheck. A refused check is a GatewayRefusedError: nothing is paid after it.
 */
export async function checkPurchase(client: GatewayClient, request: PurchaseRequest): Promise<{ answer: GatewayAnswer; vouchers: VoucherList }> {
  const { answer, vouchers } = await client.accountCheck({
    service: request.service,
    account: request.account,
    amount: '0',
    currency: request.currency,
  });
  if (answer.status !== successStatus) {
    throw new GatewayRefusedError(
      `the gateway refused the account check, so no payment was sent: ${answer.message || 'no message'} (ResponseStatus ${answer.status})`,
      answer.status,
    );
  }
  return { answer, vouchers };
}

/** A dynamic service with nothing for this account now (vouchers.ts): nothing to pay, nothing sent. */
export function emptyVoucherListError(request: Pick<PurchaseRequest, 'service' | 'account'>): EmptyVoucherListError {
  return new EmptyVoucherListError(
    `the voucher list of service ${request.service} is empty for account ${request.account} now; no payment was sent`,
    { hint: 'the gateway has no vouchers for this account at the moment: try again later, or another account or service' },
  );
}

/**
 * spec 4.2: the voucher `request.invoiceId` (or `invoicePosition`) names in the list, paid with its OrderAmount
 * byte for byte; a typed amount must be the same string (2497 is not 2497.00).
 */
export function voucherOf(vouchers: VoucherList, request: PurchaseRequest): { amount: string; voucher: Voucher } {
  if (vouchers?.length === 0) throw emptyVoucherListError(request);
  const voucher = vouchers?.find((v) => (request.invoiceId === undefined ? v.position === request.invoicePosition : v.invoiceId === request.invoiceId));
  if (!voucher) {
    const known = vouchers?.map((v) => v.invoiceId).join(', ');
    const wanted = request.invoiceId === undefined ? `#${request.invoicePosition}` : request.invoiceId;
    throw new UsageError(`invoice ${wanted} is not in the voucher list of service ${request.service}; no payment was sent`, {
      hint: known ? `InvoiceIds there: ${known}` : 'the service has no voucher list: pay it with --amount',
    });
  }
  if (request.amount !== undefined && request.amount !== voucher.orderAmount) {
    throw new UsageError(
      `--amount ${request.amount} is not the OrderAmount of invoice ${voucher.invoiceId}, ${voucher.orderAmount}; no payment was sent`,
      { hint: `amounts must match to the last digit (spec 4.2): drop --amount or give ${voucher.orderAmount}` },
    );
  }
  return { amount: voucher.orderAmount, voucher };
}

/**
 * The amount to send: a dynamic voucher's from a fresh AccountCheck (spec 4.2), a static
 * one's as given (spec 4.3). `buy` has already made the check and calls voucherOf itself.
 */
export async function resolvePurchase(client: GatewayClient, request: PurchaseRequest): Promise<{ amount: string; voucher: Voucher | undefined }> {
  if (request.invoiceId === undefined && request.invoicePosition === undefined) {
    if (request.amount === undefined) {
      throw new UsageError('give --invoice-id <id> for a dynamic voucher, or --amount <decimal> for a static one');
    }
    return { amount: request.amount, voucher: undefined };
  }
  const { vouchers } = await checkPurchase(client, request);
  return voucherOf(vouchers, request);
}

/** The Payment for a resolved purchase. A voucher picked by position pays with its own InvoiceId. */
export function paymentInputOf(request: PurchaseRequest, amount: string, transactionId: string, voucher?: Voucher): PaymentInput {
  return {
    service: request.service,
    account: request.account,
    amount,
    currency: request.currency,
    transactionId,
    invoiceId: voucher?.invoiceId ?? request.invoiceId,
  };
}

export interface PaymentOutcome {
  view: TransactionView;
  /** Set when the outcome is not success: the error to end the command with. */
  error: GatewayRefusedError | TransactionPendingError | PaymentOutcomeUnknownError | undefined;
}

/** The error a transaction that is not a success ends the command with (pay, buy, status). */
export function errorOfView(view: TransactionView, codes: CodeTable): PaymentOutcome['error'] {
  switch (view.state) {
    case 'success':
      return undefined;
    case 'failed':
      return new GatewayRefusedError(`the gateway refused transaction ${view.transactionId}: ${view.message || 'no message'} (ResponseStatus ${view.status})`, view.status ?? '');
    case 'pending':
      return new TransactionPendingError(`transaction ${view.transactionId} is still in progress (ResponseStatus ${view.status})`, {
        hint: `follow it with: agentpay status --wait 120 ${view.transactionId}`,
      });
    case 'unknown':
      return unknownOutcomeError(view, codes);
  }
}

/** `ResponseStatus 115 "Ошибка: …"`: a gateway's code and Message, exactly as sent. */
export function answerText(view: Pick<TransactionView, 'status' | 'message'>): string {
  return `ResponseStatus ${view.status ?? '-'}${view.message ? ` ${JSON.stringify(view.message)}` : ''}`;
}

/**
 * An open transaction the gateway did answer about: "not found" (it may not have caught up),
 * a refused look-up (wrong credentials: nothing learned), or a code its table does not
 * classify. Its code and Message are shown as sent.
 */
function unknownOutcomeError(view: TransactionView, codes: CodeTable): PaymentOutcomeUnknownError {
  const id = view.transactionId;
  if (view.status === null) return new PaymentOutcomeUnknownError(id, view.message);
  const said = answerText(view);
  if (isRefusedLookUp(view, codes)) {
    return new PaymentOutcomeUnknownError(id, `the gateway refused the look-up itself (${said}), which says nothing of the payment`, {
      hint: 'check the agent id and password with `agentpay doctor`, then look again',
    });
  }
  if (classifyCode(view.status, codes) === 'notFound') {
    return new PaymentOutcomeUnknownError(id, `not found at the gateway (${said})`, {
      hint: `a payment made moments ago may not have reached it yet: look again with \`agentpay status ${id}\`; \`agentpay reconcile\` closes a journaled one as never made once it is older than --grace`,
    });
  }
  return new PaymentOutcomeUnknownError(id, `the gateway answered ${said}, a code not classified for this gateway, so it is not final`, {
    hint: `${classifyHint(view.status)}; until then it stays open and \`agentpay reconcile\` asks the gateway again`,
  });
}

export function dryRunLines(endpoint: string, form: readonly FormField[]): string[] {
  const width = Math.max(...form.map(([name]) => name.length));
  return [`POST ${endpoint}`, ...form.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`)];
}
