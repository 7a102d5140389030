import { AgentpayError, ExitCode, InterruptedError } from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import { payOptions } from '../../options/purchase.js';
import { optionRecord } from '../../options/values.js';
import { type FormField, formToObject, maskForm } from '../../protocol/form.js';
import { generateTransactionId } from '../../protocol/transaction-id.js';
import { executePayment, intentOf } from '../../purchase/execute-payment.js';
import { heldVoucher } from '../../purchase/held-retry.js';
import type { PaymentOutcome } from '../../purchase/outcome.js';
import { paymentInputOf, resolvePurchase } from '../../purchase/voucher-choice.js';
import { shownText } from '../../render/sanitize.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { guardLivePay, yesOption } from '../live-guard.js';
import { outcomeWithRetry, withRetryHint } from '../retry-command.js';

/** The ledger's receipt, loaded only for --receipt (its renderer measures text widths). */
const receiptWriter = () => import('../ledger-receipt.js');

function dryRunLines(endpoint: string, form: readonly FormField[]): string[] {
  const width = Math.max(...form.map(([name]) => name.length));
  return [
    `POST ${shownText(endpoint)}`,
    ...form.map(([name, value]) => `  ${name.padEnd(width)}  ${shownText(value)}`),
  ];
}

// After SIGINT or SIGTERM, a failure with nothing sent is said as what it is: stopped, nothing paid.
function stoppedBeforePayment(error: unknown, context: CommandContext): unknown {
  const signal = stoppedBy(context.interrupts);
  if (signal === undefined || !(error instanceof AgentpayError) || error.exitCode !== ExitCode.unreachable)
    return error;
  return new InterruptedError(signal, t().errors.stoppedNothingPaid(signal));
}

/** `agentpay pay`: one Payment, dynamic (spec 4.2) or static (spec 4.3). */
export async function runPay(rawOptions: unknown, context: CommandContext): Promise<void> {
  const { checkBulkOrSingle } = await import('./bulk/options.js');
  if (checkBulkOrSingle(rawOptions)) return (await import('./bulk/run.js')).runBulkPay(rawOptions, context);
  if (optionRecord(rawOptions).approved !== undefined)
    return (await import('./approved.js')).runApprovedPay(rawOptions, context);
  const options = payOptions(rawOptions);
  const requestApproval = optionRecord(rawOptions).requestApproval === true;
  const { out } = context;
  // A request for approval sends nothing: like a dry run, it needs no --yes.
  const live = guardLivePay(context, { yes: yesOption(rawOptions), dryRun: options.dryRun || requestApproval });
  // A team ledger's connection opens while the gateway is asked about the account; a failure
  // is met where the intent is written (nothing sent then), not here.
  if (!options.dryRun && context.settings.ledger.value.kind === 'postgres') context.openLedger().catch(() => undefined);
  const session = await context.openGateway();
  try {
    const { client } = session;
    const owner = { gateway: session.gateway, agentId: session.agentId };
    const held = options.dryRun ? undefined : await heldVoucher(() => context.openLedger(), owner, options);
    const choice = held ?? (await resolvePurchase(client, options));
    const input = paymentInputOf(options, choice, options.txnId ?? generateTransactionId());

    if (options.dryRun) {
      const form = maskForm(client.paymentForm(input));
      if (out.json) out.data(JSON.stringify({ dryRun: true, endpoint: client.endpoint, form: formToObject(form) }));
      else {
        out.note(out.errorStyle.dim(t().pay.dryRun));
        out.data(dryRunLines(client.endpoint, form).join('\n'));
      }
      return;
    }

    const notes = { voucher: choice.kind === 'voucher' ? choice.voucher.name : undefined, overrides: live.overrides };
    const desk = { overLimit: options.overLimit, duplicates: options.allowDuplicate ? 'allow' : 'refuse' } as const;
    // The live question comes after the limits and the duplicate check: nobody is asked about a payment then refused.
    // Without a question the checks are made once (executePayment checks again after an answer).
    const { confirm: ask } = live;
    const confirm = ask === undefined ? undefined : () => ask(input);
    if (requestApproval) {
      const { requestPurchaseApproval } = await import('../../purchase/approval.js');
      const intent = intentOf(session, input, notes);
      await requestPurchaseApproval(context, intent, desk, ({ needs, expiresAt }) => {
        if (out.json) out.data(JSON.stringify({ ...intent, state: 'awaiting-approval', needs, expiresAt }));
      });
    }
    const receiptFile = options.receipt;
    // An unknown outcome's hint names the whole command that retries it (this purchase, its TransactionID).
    const retry = [
      ...(receiptFile === undefined ? [] : ['--receipt', receiptFile]),
      ...(options.overLimit ? ['--over-limit'] : []),
      ...(live.overrides.includes('yes') ? ['--yes'] : []),
    ];
    let outcome: PaymentOutcome;
    try {
      outcome = outcomeWithRetry(
        await executePayment(context, session, input, {
          checkReplay: options.txnId !== undefined,
          notes,
          desk,
          confirm,
          spinner: true,
        }),
        context,
        input,
        retry,
      );
    } catch (caught) {
      const error = withRetryHint(caught, context, input, retry);
      // A Payment proven not sent, or whose outcome could not be recorded: the ledger's receipt, if it has one.
      if (receiptFile !== undefined)
        await (await receiptWriter()).writeReceiptFile(context, receiptFile, owner, input, undefined);
      throw error;
    }
    const { view, error } = outcome;
    const { renderReceipt, transactionJson } = await import('../../render/transaction.js');
    out.data(out.json ? transactionJson(view) : renderReceipt(view, out.style, 'payment', t()));
    if (receiptFile !== undefined)
      await (await receiptWriter()).writeReceiptFile(context, receiptFile, owner, input, view);
    if (error) throw error;
  } catch (error) {
    throw stoppedBeforePayment(error, context);
  } finally {
    await session.close();
  }
}
