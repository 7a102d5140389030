import { InterruptedError, type StopSignal, UsageError } from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import { amountOption, checkedPurchaseText, typedAmountNotation } from '../../options/purchase.js';
import { optionalNonBlankText, optionalText, optionRecord, switchOption } from '../../options/values.js';
import type { Output } from '../../output.js';
import { parseCurrency } from '../../protocol/money.js';
import { deskFindings } from '../../purchase/desk-guard.js';
import { executePayment, intentOf, nothingSent } from '../../purchase/execute-payment.js';
import { lookUpBook } from '../../purchase/look-up-record.js';
import { t } from '../../run-scope.js';
import type { ServiceEntries } from '../../settings/services.js';
import type { CommandContext } from '../context.js';
import { writeReceiptFile } from '../ledger-receipt.js';
import { announceLive } from '../live-guard.js';
import { outcomeWithRetry, withRetryHint } from '../retry-command.js';
import { runBuyFlow } from './flow.js';
import type { BuyOptions, ServiceCatalogue } from './types.js';

/** buy's flags, each checked as pay checks it; any may be left out (then it is asked). */
function buyOptions(raw: unknown): BuyOptions {
  const options = optionRecord(raw);
  const currency = optionalText(options.currency, '--currency');
  const service = optionalNonBlankText(options.service, '--service');
  const account = optionalNonBlankText(options.account, '--account');
  return {
    service: service === undefined ? undefined : checkedPurchaseText('service', service),
    account: account === undefined ? undefined : checkedPurchaseText('account', account),
    currency: currency === undefined ? undefined : parseCurrency(currency),
    amount: amountOption(options.amount, '--amount', typedAmountNotation()),
    overLimit: switchOption(options.overLimit, '--over-limit'),
    requestApproval: switchOption(options.requestApproval, '--request-approval'),
  };
}

/** `CI` set to anything but "" / "0" / "false" means no person is there to answer. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** buy only ever asks; without a person at a terminal it refuses before anything is sent. */
function refuseWithoutTerminal(out: Output): void {
  const said = t().buy;
  const scripts = said.scriptsHint;
  if (out.json) throw new UsageError(said.notInteractive, { hint: scripts });
  const missing = !out.stdin.isTTY
    ? said.missing.stdin
    : !out.stdout.isTTY
      ? said.missing.stdout
      : isCi(out.env)
        ? said.missing.ci
        : undefined;
  if (missing) throw new UsageError(said.needsTerminal(missing), { hint: scripts });
}

export async function sandboxCatalogue(): Promise<ServiceCatalogue> {
  const { sandboxServices, sandboxAccounts } = await import('../../sandbox/catalogue.js');
  return {
    services: sandboxServices.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      currency: s.currency,
      denomination: s.kind === 'static' ? s.denomination : undefined,
    })),
    defaultAccount: sandboxAccounts[0].account,
    from: 'sandbox',
  };
}

/** The profile's `services` (settings/services.ts) as buy offers them; none, no picker. */
export function profileCatalogue(services: ServiceEntries): ServiceCatalogue | undefined {
  if (services.length === 0) return undefined;
  return { services: services.map(({ id, name, kind, amounts }) => ({ id, name, kind, amounts })), from: 'profile' };
}

/** `agentpay buy`: the flow at a terminal, with Ctrl+C and SIGTERM given their meaning at each point. */
export async function runBuy(rawOptions: unknown, context: CommandContext): Promise<void> {
  const { out, settings } = context;
  refuseWithoutTerminal(out);
  const options = buyOptions(rawOptions);
  const live = announceLive(context);
  const receiptFile = optionalNonBlankText(optionRecord(rawOptions).receipt, '--receipt');
  const catalogue = settings.sandbox ? await sandboxCatalogue() : profileCatalogue(settings.services);
  const { terminalPrompter } = await import('../../prompts.js');
  // Outside a prompt the terminal turns Ctrl+C into SIGINT; the flow decides what it means.
  const interrupt = new AbortController();
  const terminated = terminationBeforePayment(context, interrupt);
  let session: Awaited<ReturnType<CommandContext['openGateway']>> | undefined;
  try {
    session = await context.openGateway();
    const paying = session;
    const flow = runBuyFlow(options, {
      client: session.client,
      pay: async (input, signal, { notes, desk }) => {
        if (options.requestApproval) {
          // Recorded for a supervisor, nothing sent: ends with exit 3 (purchase/approval.ts).
          const { requestPurchaseApproval } = await import('../../purchase/approval.js');
          return requestPurchaseApproval(context, intentOf(paying, input, notes), desk, () => undefined);
        }
        terminated.paymentStarts();
        // buy has no --txn-id: an unknown outcome's hint names the `pay` that retries this purchase.
        const retry = [
          ...(receiptFile === undefined ? [] : ['--receipt', receiptFile]),
          ...(options.overLimit ? ['--over-limit'] : []),
        ];
        try {
          const outcome = await executePayment(context, paying, input, { checkReplay: false, signal, notes, desk });
          return outcomeWithRetry(outcome, context, input, retry);
        } catch (error) {
          throw withRetryHint(error, context, input, retry);
        }
      },
      deskFindings: (input) =>
        deskFindings(context, () => context.openLedger(), intentOf(paying, input), {
          overLimit: true,
          duplicates: 'refuse',
        }).catch((error: unknown) => {
          throw nothingSent(error);
        }),
      maxAmount: (currency) => settings.desk.limit('maxAmount', currency)?.amount,
      writeReceipt:
        receiptFile === undefined
          ? undefined
          : (input, view) =>
              writeReceiptFile(context, receiptFile, { gateway: paying.gateway, agentId: paying.agentId }, input, view),
      lookUpBook: lookUpBook(
        () => context.openLedger(),
        { gateway: paying.gateway, agentId: paying.agentId },
        settings.codes.table,
        out,
      ),
      prompter: terminalPrompter({ stdin: out.stdin, stderr: out.stderr, color: out.errorStyle.enabled }),
      out,
      codes: settings.codes.table,
      catalogue,
      live,
      signal: interrupt.signal,
      firstDelayMs: settings.settle.delayMs.value,
    });
    await Promise.race([flow, terminated.stopped]);
  } finally {
    terminated.release();
    await session?.close({ abort: interrupt.signal.aborted || context.interrupts.signal.aborted });
  }
}

// The signals as buy hears them: Ctrl+C is the flow's to give meaning. SIGTERM once the payment may be out ends
// as Ctrl+C does, with the TransactionID to look up; before that it ends at once, nothing sent.
function terminationBeforePayment(context: CommandContext, interrupt: AbortController) {
  let paying = false;
  let stop: (error: InterruptedError) => void = () => undefined;
  const stopped = new Promise<never>((_resolve, reject) => (stop = reject));
  stopped.catch(() => undefined);
  const nothingPaid = () => new InterruptedError('SIGTERM', t().errors.stoppedNothingPaid('SIGTERM'));
  const on = (signal: StopSignal) => {
    if (signal === 'SIGINT' || paying) interrupt.abort();
    else stop(nothingPaid());
  };
  const release = context.interrupts.listen(on);
  const before = stoppedBy(context.interrupts);
  if (before !== undefined) on(before);
  return {
    stopped,
    release,
    paymentStarts: () => {
      // The race above has ended the command already; the flow, left behind, must not pay.
      if (!paying && stoppedBy(context.interrupts) === 'SIGTERM') throw nothingPaid();
      paying = true;
    },
  };
}
