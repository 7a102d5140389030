import { CancelledError, EmptyVoucherListError, GatewayRefusedError } from '../../errors.js';
import type { PaymentInput } from '../../gateway/client.js';
import type { PurchaseOptions } from '../../options/purchase.js';
import { type ForeignExchange, foreignExchangeOf } from '../../protocol/exchange-rate.js';
import { generateTransactionId } from '../../protocol/transaction-id.js';
import type { TransactionView } from '../../protocol/transaction-view.js';
import type { VoucherList } from '../../protocol/vouchers.js';
import { checkPurchase, emptyVoucherListError } from '../../purchase/account-check.js';
import { type DeskFindings, type DeskPolicy, enforceDesk } from '../../purchase/desk-guard.js';
import { breachText, duplicateText } from '../../purchase/desk-rules.js';
import { type PurchaseChoice, paymentInputOf } from '../../purchase/voucher-choice.js';
import { renderPurchaseSummary } from '../../render/purchase.js';
import { shownText } from '../../render/sanitize.js';
import { renderReceipt } from '../../render/transaction.js';
import { t } from '../../run-scope.js';
import { cancelledBeforePaying } from '../live-guard.js';
import { followPending } from './follow.js';
import { Interrupted, untilInterrupted } from './interrupt.js';
import { pickVoucher } from './pick-voucher.js';
import { askAgain, askPurchase, askStaticAmount } from './questions.js';
import { type BuyDependencies, type BuyOptions, type BuyScope, buyScope } from './types.js';

// `agentpay buy`, the interactive top-up: asks for what flags did not give, checks the account (spec 4.1),
// lets the person pick, shows what will be sent and pays after a yes, through pay's purchase layer.
export async function runBuyFlow(options: BuyOptions, deps: BuyDependencies): Promise<void> {
  const scope = buyScope(options, deps);
  const { purchase, checked } = await checkUntilAccepted(scope);
  const overLimit = options.overLimit === true;
  const { choice, input, findings } = await chooseWithinLimits(scope, purchase, checked, overLimit);
  // Over a limit is refused before the person is asked anything more (unless --over-limit).
  // With --request-approval the approval threshold is the supervisor's to weigh (the pay step asks).
  enforceDesk(options.requestApproval ? { ...findings, approval: undefined } : findings, {
    overLimit,
    duplicates: 'skip',
  });
  await confirm(scope, input, choice, checked.exchange);
  const duplicates = await confirmDuplicate(scope, input, findings);
  await payConfirmed(scope, input, choice, { overLimit, duplicates });
}

// The voucher or amount with what the desk's rules find for it: a voucher over a limit sends the person back
// to the list with the reason unless --over-limit; an amount over one is refused as pay refuses it.
async function chooseWithinLimits(
  scope: BuyScope,
  purchase: PurchaseOptions,
  checked: Checked,
  overLimit: boolean,
): Promise<{ choice: PurchaseChoice; input: PaymentInput; findings: DeskFindings }> {
  const { deps, out } = scope;
  for (;;) {
    const choice =
      checked.vouchers !== null
        ? await pickVoucher(scope, purchase, checked.vouchers, checked.currency)
        : await askStaticAmount(scope, purchase);
    const input = paymentInputOf(purchase, choice, (deps.newTransactionId ?? generateTransactionId)());
    const findings = await deps.deskFindings(input);
    if (overLimit || findings.breaches.length === 0 || checked.vouchers === null) return { choice, input, findings };
    out.warn(t().buy.overLimitPicked(findings.breaches.map((breach) => breachText(breach)).join('; ')));
  }
}

// A like payment made recently: what it was, then a second question answered by typing the account's last
// four digits. 'allow' when the person said so (recorded), 'refuse' when there was nothing to ask.
async function confirmDuplicate(
  { out, deps }: BuyScope,
  input: PaymentInput,
  findings: DeskFindings,
): Promise<'allow' | 'refuse'> {
  if (findings.duplicates.length === 0) return 'refuse';
  out.note('');
  const said = t();
  out.note(out.errorStyle.pending(said.buy.sameTopUp));
  // The ledger's account and operator may come from other machines: shown through shownText.
  for (const payment of findings.duplicates) out.note(`  ${shownText(duplicateText(payment, new Date()))}`);
  const digits = input.account.slice(-4);
  const typed = await deps.prompter.input({ message: said.buy.typeDigits(digits.length) }).catch((error: unknown) => {
    throw cancelledBeforePaying(error, said.errors.cancelledDuplicate);
  });
  if (typed.trim() !== digits) throw new CancelledError(said.errors.cancelledDuplicate);
  if (deps.signal.aborted) throw new CancelledError();
  return 'allow';
}

/** What the account check said: the vouchers (null for a static service), their currency, any exchange. */
interface Checked {
  vouchers: VoucherList;
  currency: string;
  exchange: ForeignExchange | undefined;
}

/** The purchase asked for, checked again after each refusal until the gateway accepts it (or the person quits). */
async function checkUntilAccepted(scope: BuyScope): Promise<{ purchase: PurchaseOptions; checked: Checked }> {
  let purchase = await askPurchase(scope);
  for (;;) {
    try {
      const checked = await check(scope, purchase);
      // Nothing for this account now is not a static service: ask again, never for a free amount.
      if (checked.vouchers?.length === 0) throw emptyVoucherListError(purchase);
      return { purchase, checked };
    } catch (error) {
      if (!(error instanceof GatewayRefusedError) && !(error instanceof EmptyVoucherListError)) throw error;
      purchase = await askAgain(scope, purchase, error);
    }
  }
}

// AccountCheck with a spinner; a refusal is a GatewayRefusedError, but a warning for a service the profile
// declares static (account-check.ts).
async function check(scope: BuyScope, purchase: PurchaseOptions): Promise<Checked> {
  const { out, deps } = scope;
  if (deps.signal.aborted) throw new CancelledError();
  const said = t();
  const spinner = out.startSpinner(said.buy.checking(said.check.subject(purchase.service, purchase.account)));
  try {
    const declaredStatic = scope.declaredStatic(purchase.service);
    const { answer, vouchers, refused } = await untilInterrupted(
      checkPurchase(deps.client, purchase, { declaredStatic }),
      deps.signal,
    );
    spinner.stop();
    if (refused) {
      const message = answer.message || said.purchase.noMessage;
      out.warn(said.buy.checkRefusedStatic(purchase.service, message, answer.status));
      return { vouchers: null, currency: purchase.currency, exchange: undefined };
    }
    return {
      vouchers,
      currency: answer.currency ?? purchase.currency,
      exchange: foreignExchangeOf(answer, purchase.currency),
    };
  } catch (error) {
    spinner.stop();
    // Nothing has been paid yet: Ctrl+C here is a plain cancel.
    if (error instanceof Interrupted) throw new CancelledError();
    throw error;
  }
}

/** Exactly what will be sent, then a yes or no (no is the default). */
async function confirm(
  { out, deps, columns, offerOf }: BuyScope,
  input: PaymentInput,
  choice: PurchaseChoice,
  exchange: ForeignExchange | undefined,
): Promise<void> {
  const summary = {
    service: input.service,
    serviceName: offerOf(input.service)?.name,
    account: input.account,
    voucher: choice.kind === 'voucher' ? choice.voucher : undefined,
    amount: input.amount,
    currency: input.currency,
    transactionId: input.transactionId,
    exchange,
    live: deps.live,
  };
  out.note('');
  const said = t();
  out.note(renderPurchaseSummary(summary, out.errorStyle, columns, said));
  const go = await deps.prompter
    .confirm({
      message: said.buy.payNow(input.amount, input.currency),
      initial: false,
      answers: { yes: said.yes, no: said.no },
    })
    .catch((error: unknown) => {
      throw cancelledBeforePaying(error);
    });
  if (!go) throw new CancelledError(said.errors.cancelledNothingPaid);
  if (deps.signal.aborted) throw new CancelledError();
}

/** Pays, shows the receipt (and writes it, with --receipt), and follows a payment still in progress. */
async function payConfirmed(
  scope: BuyScope,
  input: PaymentInput,
  choice: PurchaseChoice,
  desk: DeskPolicy,
): Promise<void> {
  const { out, deps } = scope;
  const writeReceipt = async (view: TransactionView | undefined) => deps.writeReceipt?.(input, view);
  // From here on the payment may be out: Ctrl+C never means "nothing happened".
  const said = t();
  const spinner = out.startSpinner(said.buy.paying(input.amount, input.currency, input.transactionId));
  let outcome;
  try {
    outcome = await deps.pay(input, deps.signal, {
      notes: { voucher: choice.kind === 'voucher' ? choice.voucher.name : undefined },
      desk,
    });
  } catch (error) {
    spinner.stop();
    await writeReceipt(undefined);
    throw error;
  }
  spinner.stop();
  out.data(renderReceipt(outcome.view, out.style, 'payment', said));
  await writeReceipt(outcome.view);
  if (outcome.view.state === 'pending') {
    await followPending(scope, outcome.view, writeReceipt);
    return;
  }
  if (outcome.error) throw outcome.error;
}
