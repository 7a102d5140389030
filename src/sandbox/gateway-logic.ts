import { LosslessNumber } from '../protocol/lossless.js';
import { isPlainDecimal } from '../protocol/money.js';
import { md5Hex } from '../protocol/password.js';
import { sandboxCodes } from '../protocol/sandbox-codes.js';
import { isLongId } from '../protocol/transaction-id.js';
import { findService, refusedAccount, type SandboxService, sandboxCredentials } from './catalogue.js';
import type { StoredTransaction, TransactionStore } from './state.js';

// Spec rules the sandbox breaks on `--break`, so a conformance suite is seen to catch each: idempotency (a
// repeated TransactionID pays again, spec 3 rule 2), amount-check (any Amount, spec 4.2), echo (no
// TransactinID, spec 2.2).
export const sandboxBreaks = ['idempotency', 'amount-check', 'echo'] as const;
type SandboxBreak = (typeof sandboxBreaks)[number];

/** How the sandbox behaves beyond the spec; all off by default. */
export interface SandboxBehaviour {
  /** Payments stay in progress (code 11) for this many Status polls. */
  pendingPolls: number;
  /** Rules broken on purpose; none by default. */
  breaks: readonly SandboxBreak[];
}

type Envelope = Record<string, unknown>;

const longNumber = (text: string) => new LosslessNumber(/^\d+$/.test(text) ? text : '0');
const decimalNumber = (text: string) => (isPlainDecimal(text) ? new LosslessNumber(text) : text);

const successMessage = 'Успех';

function envelope(
  form: URLSearchParams,
  type: string,
  status: number,
  message: string,
  extra: { requestId?: string; content?: Envelope } = {},
): Envelope {
  return {
    // spec 2.2: spelled without the second "o".
    TransactinID: longNumber(form.get('TransactionID') ?? ''),
    RequestID: longNumber(extra.requestId ?? '0'),
    ResponseType: type,
    ResponseStatus: status,
    Message: message,
    ...(extra.content ? { TransactionContent: extra.content } : {}),
  };
}

function refusal(form: URLSearchParams, type: string, status: number, message: string): Envelope {
  return envelope(form, type, status, `Ошибка: ${message}`);
}

function transactionEnvelope(form: URLSearchParams, type: string, transaction: StoredTransaction): Envelope {
  return envelope(form, type, transaction.status, transaction.message, {
    requestId: transaction.requestId,
    content: {
      Service: transaction.service,
      account: transaction.account,
      Amount: decimalNumber(transaction.amount),
      Currency: transaction.currency,
      ExchangeRate: decimalNumber(transaction.exchangeRate),
      ServiceCurrency: transaction.serviceCurrency,
    },
  });
}

const passwordAccepted = (sent: string) =>
  sent === sandboxCredentials.password || sent.toLowerCase() === md5Hex(sandboxCredentials.password);

interface PurchaseCheck {
  service: SandboxService;
  account: string;
  amount: string;
  currency: string;
}

/** The checks AccountCheck and Payment share; a string is the refusal's code and text. */
function checkPurchase(form: URLSearchParams): PurchaseCheck | [number, string] {
  const service = findService(form.get('Service') ?? '');
  if (!service) return [sandboxCodes.unknownService, `unknown service ${JSON.stringify(form.get('Service') ?? '')}`];
  const currency = form.get('Currency') ?? '';
  if (currency !== service.currency) {
    return [
      sandboxCodes.currencyNotAccepted,
      `service ${service.id} is billed in ${service.currency}, not ${JSON.stringify(currency)}`,
    ];
  }
  const account = form.get('Account') ?? '';
  if (account.trim() === '') return [sandboxCodes.badRequest, 'Account is required'];
  if (account === refusedAccount) return [sandboxCodes.accountRefused, `account ${account} is refused by the provider`];
  const amount = form.get('Amount') ?? '';
  if (!isPlainDecimal(amount)) return [sandboxCodes.badRequest, `Amount ${JSON.stringify(amount)} is not a decimal`];
  return { service, account, amount, currency };
}

function accountCheck(form: URLSearchParams): Envelope {
  const checked = checkPurchase(form);
  if (Array.isArray(checked)) return refusal(form, 'AccountCheck', ...checked);
  const { service, account, amount, currency } = checked;
  const content: Envelope = {
    Service: service.id,
    account,
    Amount: decimalNumber(amount),
    Currency: currency,
    ExchangeRate: decimalNumber(service.exchangeRate),
  };
  if (service.kind === 'dynamic') {
    content.Extras = service.vouchers.map((voucher, index) => ({
      FieldName: `Invoice-${index + 1}`,
      // spec 2.4: FieldValue is a JSON document held in a string.
      FieldValue: JSON.stringify({
        InvoiceId: Number(voucher.invoiceId),
        OrderAmount: voucher.orderAmount,
        InvoiceName: voucher.name,
      }),
    }));
  }
  return envelope(form, 'AccountCheck', sandboxCodes.success, successMessage, { content });
}

/** Why a payment is refused, or undefined when it goes through. */
function paymentRefusal(
  form: URLSearchParams,
  checked: PurchaseCheck,
  behaviour: SandboxBehaviour,
): [number, string] | undefined {
  const { service, amount } = checked;
  if (service.kind === 'dynamic') {
    if (form.get('Extra[0].Name') !== 'InvoiceId')
      return [sandboxCodes.badRequest, 'Extra[0].Name must be InvoiceId for a dynamic voucher'];
    const invoiceId = form.get('Extra[0].Value') ?? '';
    const voucher = service.vouchers.find((v) => v.invoiceId === invoiceId);
    if (!voucher)
      return [sandboxCodes.unknownInvoice, `unknown InvoiceId ${JSON.stringify(invoiceId)} for service ${service.id}`];
    // spec 4.2: to the last decimal digit, so the strings must be identical.
    if (amount !== voucher.orderAmount && !behaviour.breaks.includes('amount-check')) {
      return [
        sandboxCodes.amountMismatch,
        `Amount ${amount} does not equal OrderAmount ${voucher.orderAmount} of invoice ${invoiceId}`,
      ];
    }
    return undefined;
  }
  if (service.denomination !== undefined && amount !== service.denomination) {
    return [sandboxCodes.amountMismatch, `Amount ${amount} does not equal the denomination ${service.denomination}`];
  }
  if (/^0(\.0+)?$/.test(amount)) return [sandboxCodes.amountMismatch, 'Amount must be more than zero'];
  return undefined;
}

function payment(form: URLSearchParams, store: TransactionStore, behaviour: SandboxBehaviour): Envelope {
  const agentId = form.get('AgentID') ?? '';
  const transactionId = form.get('TransactionID') ?? '';
  // spec 3, rule 2: an existing TransactionID returns that payment and creates nothing,
  // whatever else the repeated request says.
  const breakIdempotency = behaviour.breaks.includes('idempotency');
  const existing = store.find(agentId, transactionId);
  if (existing && !breakIdempotency) return transactionEnvelope(form, 'Payment', existing);

  const checked = checkPurchase(form);
  if (Array.isArray(checked)) return refusal(form, 'Payment', ...checked);
  const refused = paymentRefusal(form, checked, behaviour);
  const pending = !refused && behaviour.pendingPolls > 0;
  const make = (requestId: string): StoredTransaction => ({
    agentId,
    transactionId,
    requestId,
    service: checked.service.id,
    account: checked.account,
    amount: checked.amount,
    currency: checked.currency,
    invoiceId: form.get('Extra[0].Value'),
    status: refused ? refused[0] : pending ? sandboxCodes.inProgress : sandboxCodes.success,
    message: refused ? `Ошибка: ${refused[1]}` : pending ? 'В обработке (in progress)' : successMessage,
    exchangeRate: checked.service.exchangeRate,
    serviceCurrency: checked.service.serviceCurrency,
    createdAt: new Date().toISOString(),
    pendingPollsLeft: pending ? behaviour.pendingPolls : 0,
  });
  const { transaction } = breakIdempotency ? store.createAgain(make) : store.createOnce(agentId, transactionId, make);
  return transactionEnvelope(form, 'Payment', transaction);
}

function status(form: URLSearchParams, store: TransactionStore): Envelope {
  const transaction = store.find(form.get('AgentID') ?? '', form.get('TransactionID') ?? '');
  if (!transaction) {
    return refusal(
      form,
      'Status',
      sandboxCodes.transactionNotFound,
      `transaction ${form.get('TransactionID')} not found`,
    );
  }
  if (transaction.pendingPollsLeft > 0) {
    const left = transaction.pendingPollsLeft - 1;
    const settled = left === 0;
    const next: StoredTransaction = {
      ...transaction,
      pendingPollsLeft: left,
      ...(settled ? { status: sandboxCodes.success, message: successMessage } : {}),
    };
    store.update(next);
    // This poll still sees it in progress; the next one sees it final.
    return transactionEnvelope(form, 'Status', transaction);
  }
  return transactionEnvelope(form, 'Status', transaction);
}

/** One request of spec 4, answered as the gateway would (or with the rules it was told to break). */
export function answerRequest(form: URLSearchParams, store: TransactionStore, behaviour: SandboxBehaviour): Envelope {
  const answer = answerAsSpecified(form, store, behaviour);
  if (behaviour.breaks.includes('echo')) delete answer.TransactinID;
  return answer;
}

function answerAsSpecified(form: URLSearchParams, store: TransactionStore, behaviour: SandboxBehaviour): Envelope {
  const type = form.get('RequestType') ?? '';
  if (type !== 'AccountCheck' && type !== 'Payment' && type !== 'Status') {
    return refusal(
      form,
      type || 'Unknown',
      sandboxCodes.unknownRequestType,
      `unknown RequestType ${JSON.stringify(type)}`,
    );
  }
  if (form.get('AgentID') !== sandboxCredentials.agentId || !passwordAccepted(form.get('AgentPassword') ?? '')) {
    return refusal(form, type, sandboxCodes.badCredentials, 'wrong AgentID or AgentPassword');
  }
  if (!isLongId(form.get('TransactionID') ?? '')) {
    return refusal(form, type, sandboxCodes.badRequest, 'TransactionID must be a Long');
  }
  if (!form.get('RequestDate')) return refusal(form, type, sandboxCodes.badRequest, 'RequestDate is required');
  if (type === 'AccountCheck') return accountCheck(form);
  if (type === 'Payment') return payment(form, store, behaviour);
  return status(form, store);
}
