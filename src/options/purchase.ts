import { UsageError } from '../errors.js';
import { accountMaxCharacters, charactersUpTo, forbiddenCharacterIn } from '../protocol/field-bounds.js';
import type { PurchaseInput } from '../protocol/form.js';
import { type AmountNotation, isZeroDecimal, parseAmount, parseCurrency } from '../protocol/money.js';
import { parseTransactionId } from '../protocol/transaction-id.js';
import { t } from '../run-scope.js';
import type { OptionDefinition } from './definition.js';
import {
  optionalNonBlankText,
  optionalText,
  optionRecord,
  requiredText,
  switchOption,
  wholeNumberOption,
} from './values.js';

/** The options of a purchase, shared by check, pay, buy and a scenario's steps: one parser per
 * option over the field rules in protocol/, each raising the message a person sees. */

/** What to buy from whom: a service, a customer account and a currency. */
export interface PurchaseOptions {
  service: string;
  account: string;
  currency: string;
}

/** The currency when --currency is not given (the spec's parameter tables, 2.1). */
export const defaultCurrency = 'KZT';

/** --service of check and pay; each says whether it is required (buy's is asked when not given: its own). */
export const serviceDefinition = {
  flag: '--service <id>',
  help: { en: 'service id', ru: 'id услуги' },
} as const satisfies OptionDefinition;

/** --account of check and pay. */
export const accountDefinition = {
  flag: '--account <account>',
  help: { en: 'customer account', ru: 'счёт клиента' },
} as const satisfies OptionDefinition;

/** --currency of check and pay. */
export const currencyDefinition = {
  flag: '--currency <code>',
  help: { en: `currency code (default ${defaultCurrency})`, ru: `код валюты (по умолчанию ${defaultCurrency})` },
} as const satisfies OptionDefinition;

/** --currency: a three-letter code, KZT when not given. */
function currencyOption(raw: unknown): string {
  return parseCurrency(optionalText(raw, '--currency') ?? defaultCurrency);
}

/** A character no field may hold, and where, as a message says it: `holds the control character U+0000 at character 3`. */
export function forbiddenCharacterText({
  code,
  position,
  kind,
}: NonNullable<ReturnType<typeof forbiddenCharacterIn>>): string {
  const codePoint = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return kind === 'control'
    ? t().bulk.cell.control(codePoint, position)
    : t().bulk.cell.loneSurrogate(codePoint, position);
}

/** What is wrong with a service or account from the command line, as with an order file's cell
 * (order-cells.ts): a control character, half a surrogate pair, an account too long; else undefined. */
export function purchaseTextProblem(field: 'service' | 'account', text: string): string | undefined {
  const forbidden = forbiddenCharacterIn(text);
  if (forbidden !== undefined) return forbiddenCharacterText(forbidden);
  if (field === 'account' && charactersUpTo(text, accountMaxCharacters) > accountMaxCharacters)
    return t().bulk.cell.tooLong(accountMaxCharacters);
  return undefined;
}

/** A --service or --account given (not blank), checked by purchaseTextProblem; a UsageError (exit 2) if not. */
export function checkedPurchaseText(field: 'service' | 'account', text: string): string {
  const problem = purchaseTextProblem(field, text);
  if (problem !== undefined) throw new UsageError(t().options.badText(`--${field}`, problem));
  return text;
}

/** --service, --account (both required, not blank, no control character) and --currency, in that order. */
export function purchaseOptions(options: Record<string, unknown>): PurchaseOptions {
  return {
    service: checkedPurchaseText('service', requiredText(options.service, '--service')),
    account: checkedPurchaseText('account', requiredText(options.account, '--account')),
    currency: currencyOption(options.currency),
  };
}

/** --amount: a plain decimal string, kept byte for byte (spec 2.2). Typed in the language's notation on the
 * command line (`1500,50` in Russian); a scenario file's always has a point. */
export function amountOption(raw: unknown, field = '--amount', notation: AmountNotation = 'point'): string | undefined {
  const text = optionalText(raw, field);
  return text === undefined ? undefined : parseAmount(text, field, notation);
}

/** An amount typed by a person (a flag, a prompt): in the notation of the language spoken. */
export const typedAmountNotation = (): AmountNotation => t().amountNotation;

/** --invoice-id: an InvoiceId as the check list shows it (a Long, so digits kept as text). */
export function invoiceIdOption(raw: unknown): string | undefined {
  const text = optionalText(raw, '--invoice-id');
  if (text !== undefined && !/^\d{1,19}$/.test(text)) throw new UsageError(t().options.invoiceIdDigits);
  return text;
}

/** --txn-id: a TransactionID to use instead of a fresh one. */
export function transactionIdOption(raw: unknown): string | undefined {
  const text = optionalText(raw, '--txn-id');
  return text === undefined ? undefined : parseTransactionId(text, '--txn-id');
}

/** How old a payment must be before the gateway's "not found" makes it final ("never made"):
 * reconcile's --grace by default, and what `status` and `shift close --settle` go by. */
export const defaultGraceSeconds = 120;

/** --wait: seconds to poll a transaction that is not final (status, and a scenario's status and wait steps). */
export const waitOption = (raw: unknown): number =>
  wholeNumberOption(raw, { fallback: '0', maxDigits: 6, flag: '--wait', unit: 'seconds' });

/** check's options (and a scenario's check step): the purchase, and the Amount sent with the check (0). */
export function checkOptions(raw: unknown, notation: AmountNotation = 'point'): PurchaseInput {
  const options = optionRecord(raw);
  const purchase = purchaseOptions(options);
  return { ...purchase, amount: amountOption(options.amount, '--amount', notation) ?? '0' };
}

/** --over-limit and --allow-duplicate: the desk's guards a person lifts for one run (recorded in the ledger when they lift anything). */
interface DeskOverrides {
  overLimit: boolean;
  allowDuplicate: boolean;
}

/** --over-limit of pay and buy. */
export const overLimitDefinition = {
  flag: '--over-limit',
  help: {
    en: 'pay even over a limit (maxAmount, dailyLimit, accountDailyLimit); the ledger records it',
    ru: 'платить даже сверх лимита (maxAmount, dailyLimit, accountDailyLimit); журнал это запишет',
  },
} as const satisfies OptionDefinition;

/** --request-approval of pay and buy: a purchase that needs a second person is recorded for a supervisor (purchase/approval.ts). */
export const requestApprovalDefinition = {
  flag: '--request-approval',
  help: {
    en: "over the approval threshold, or a duplicate: record the purchase for a supervisor's approval and send nothing (exit 3; team ledger)",
    ru: 'выше порога одобрения или дубль: записать покупку на одобрение старшему кассиру и ничего не отправлять (код 3; общий журнал)',
  },
} as const satisfies OptionDefinition;

/** --receipt of pay and buy: a file the receipt is written to as well. */
export const receiptFileDefinition = {
  flag: '--receipt <file>',
  help: {
    en: 'write the receipt to this file as well, as plain text (agentpay receipt prints it again later)',
    ru: 'записать чек ещё и в этот файл, простым текстом (agentpay receipt напечатает его снова)',
  },
} as const satisfies OptionDefinition;

function deskOverrides(options: Record<string, unknown>): DeskOverrides {
  return {
    overLimit: switchOption(options.overLimit, '--over-limit'),
    allowDuplicate: switchOption(options.allowDuplicate, '--allow-duplicate'),
  };
}

interface PayOptions extends PurchaseOptions, DeskOverrides {
  amount: string | undefined;
  invoiceId: string | undefined;
  txnId: string | undefined;
  dryRun: boolean;
  /** --receipt: a file the receipt is written to as well. */
  receipt: string | undefined;
}

/** pay's options: a dynamic voucher by --invoice-id (spec 4.2) or a static --amount (spec 4.3). */
export function payOptions(raw: unknown): PayOptions {
  const options = optionRecord(raw);
  const parsed = {
    ...purchaseOptions(options),
    amount: amountOption(options.amount, '--amount', typedAmountNotation()),
    invoiceId: invoiceIdOption(options.invoiceId),
    txnId: transactionIdOption(options.txnId),
    dryRun: switchOption(options.dryRun, '--dry-run'),
    ...deskOverrides(options),
    receipt: optionalNonBlankText(options.receipt, '--receipt'),
  };
  if (parsed.invoiceId === undefined && parsed.amount === undefined) {
    throw new UsageError(t().options.invoiceOrAmount);
  }
  if (parsed.invoiceId === undefined && isZeroDecimal(parsed.amount!)) throw new UsageError(t().options.zeroAmount);
  return parsed;
}
