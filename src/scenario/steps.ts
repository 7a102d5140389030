import { AsyncLocalStorage } from 'node:async_hooks';
import { AgentpayError, ExitCode, UsageError } from '../errors.js';
import type { ExchangeEvent, PaymentInput } from '../gateway/client.js';
import {
  amountOption,
  checkOptions,
  invoiceIdOption,
  purchaseOptions,
  transactionIdOption,
  waitOption,
} from '../options/purchase.js';
import { optionalText, switchOption } from '../options/values.js';
import { successStatus } from '../protocol/codes.js';
import { type FormField, formToObject, maskForm } from '../protocol/form.js';
import { parseLosslessJson } from '../protocol/lossless.js';
import { InvalidFieldError } from '../protocol/problems.js';
import { generateTransactionId } from '../protocol/transaction-id.js';
import { accountCheckLine } from '../purchase/account-check.js';
import { executePayment } from '../purchase/execute-payment.js';
import { errorOfView } from '../purchase/outcome.js';
import type { PaymentSession, PurchaseContext } from '../purchase/session.js';
import { lookUpStatus } from '../purchase/status-look-up.js';
import { type PurchaseRequest, paymentInputOf, resolvePurchase, voucherOf } from '../purchase/voucher-choice.js';
import { t } from '../run-scope.js';
import type { StepError, StepExecutor, StepResult, StepRun } from './step-outcome.js';

// Scenario steps through the purchase layer and the commands' parsers: check, pay (journaled, settled if lost),
// status and wait as their commands do. A gateway's answer is data for the expectations; only a step that
// could not do its job carries an error.

// The last request and answer of each step as sent (password masked); steps of cases run at once under --jobs
// are told apart by their async context.
export function exchangeRecorder() {
  interface Seen {
    request: FormField[] | undefined;
    body: string | undefined;
  }
  const current = new AsyncLocalStorage<Seen>();
  return {
    listen(event: ExchangeEvent): void {
      const seen = current.getStore();
      if (seen === undefined) return;
      if (event.direction === 'request') {
        seen.request = event.form;
        seen.body = undefined;
      } else if (event.direction === 'response') seen.body = event.body;
    },
    /** A step's work with its own record; `raw()` gives `envelope` (exact) and `request`, the last form. */
    async recording<T>(
      work: () => Promise<T>,
    ): Promise<{ value: T; raw: () => { envelope: unknown; request: Record<string, string> | null } }> {
      const seen: Seen = { request: undefined, body: undefined };
      const raw = () => {
        let envelope: unknown = null;
        try {
          if (seen.body !== undefined) envelope = parseLosslessJson(seen.body);
        } catch {
          // Not JSON: the step's error says so; there is no envelope to show.
        }
        return { envelope, request: seen.request === undefined ? null : formToObject(seen.request) };
      };
      try {
        return { value: await current.run(seen, work), raw };
      } catch (error) {
        throw new RecordedFailure(error, raw);
      }
    },
  };
}

/** A step's failure, with what went over the wire before it. */
class RecordedFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly raw: () => { envelope: unknown; request: Record<string, string> | null },
  ) {
    super('a scenario step failed');
  }
}
type ExchangeRecorder = ReturnType<typeof exchangeRecorder>;

/** The step's options under the names the commands' parsers read (`invoice-id` -> invoiceId). */
function camelCased(options: StepRun['options']): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(options).map(([key, value]) => [
      key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()),
      value,
    ]),
  );
}

/** `fresh`, or no txn-id at all: a new TransactionID, never used before. */
const freshOr = (value: unknown) => (value === 'fresh' ? undefined : value);

interface PayStep extends PurchaseRequest {
  txnId: string | undefined;
  dryRun: boolean;
  /** Send the fields as written: no AccountCheck, no amount check (conformance). */
  raw: boolean;
}

/** A pay step's options: pay's own parsers, plus `invoice` (a position from 1) and `raw`. */
function payStepOptions(step: StepRun): PayStep {
  const options = camelCased(step.options);
  const purchase = purchaseOptions(options);
  const amount = optionalText(options.amount, 'amount');
  if (amount === '') throw new UsageError('amount must not be empty');
  const invoiceId = invoiceIdOption(options.invoiceId);
  const position = optionalText(options.invoice, 'invoice');
  if (position !== undefined && !/^[1-9]\d{0,5}$/.test(position))
    throw new UsageError('invoice is a position in the voucher list, from 1');
  return {
    ...purchase,
    amount,
    invoiceId,
    invoicePosition: position === undefined ? undefined : Number(position),
    txnId: transactionIdOption(freshOr(options.txnId)),
    dryRun: switchOption(options.dryRun, 'dry-run'),
    raw: switchOption(options.raw, 'raw'),
  };
}

// A pay step's Payment: the voucher resolved as `pay` does, or with `raw` the fields as written (no checks,
// still journaled). A refused AccountCheck is data for the expectations (docs/scenarios.md): no Payment.
async function paymentOfStep(
  options: PayStep,
  client: PaymentSession['client'],
  transactionId: string,
): Promise<PaymentInput | { refusedCheck: StepResult }> {
  if (options.raw) {
    const { service, account, currency, invoiceId } = options;
    return { service, account, currency, transactionId, amount: options.amount ?? '', invoiceId };
  }
  const request = { ...options, amount: amountOption(options.amount, 'amount') };
  if (request.invoiceId === undefined && request.invoicePosition === undefined)
    return paymentInputOf(options, await resolvePurchase(client, request), transactionId);
  const purchase = { service: options.service, account: options.account, amount: '0', currency: options.currency };
  const checked = await client.accountCheck(purchase);
  if (checked.answer.status !== successStatus) return { refusedCheck: { record: accountCheckLine(checked, purchase) } };
  return paymentInputOf(options, { kind: 'voucher', voucher: voucherOf(checked.vouchers, request) }, transactionId);
}

function stepErrorOf(error: unknown): StepError {
  if (error instanceof AgentpayError) return { exitCode: error.exitCode, type: error.name, message: error.message };
  if (error instanceof InvalidFieldError)
    return { exitCode: ExitCode.usage, type: 'UsageError', message: t().options.field(error) };
  throw error;
}

/** A gateway session a step can also run with other credentials (on the same connections). */
interface StepSession extends PaymentSession {
  withCredentials(override: { agentId?: string | undefined; password?: string | undefined }): PaymentSession;
}

export interface GatewayStepsOptions {
  context: PurchaseContext;
  /** The guards the run's flags lifted, recorded with each payment (["yes"]: --yes through a live profile). */
  lifted?: readonly string[];
  session: StepSession;
  recorder: ExchangeRecorder;
  /** Ctrl+C: a wait step stops polling. */
  signal: AbortSignal;
}

/** One at a time: the desk's checks and intents of payments made side by side (--jobs). */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => undefined);
    return next;
  };
}

export function gatewayStepExecutor({
  context,
  session,
  recorder,
  signal,
  lifted = [],
}: GatewayStepsOptions): StepExecutor {
  const { settings, out } = context;
  const codes = settings.codes.table;
  const exclusive = oneAtATime();

  const paid = async (active: PaymentSession, input: PaymentInput, checkReplay: boolean): Promise<StepResult> => {
    // Limits hold for a scenario too; its payments repeat one another on purpose (docs/desk-safety.md).
    const desk = { overLimit: false, duplicates: 'skip' } as const;
    const { view } = await executePayment(context, active, input, {
      checkReplay,
      notes: { overrides: lifted },
      desk,
      exclusive,
    });
    // Unknown is worth a word beside the record (the gateway's code, the setting to classify it);
    // pending is left to the scenario's own wait steps and assertions.
    const error = view.state === 'unknown' ? errorOfView(view, codes) : undefined;
    if (error) out.warn(`${error.message}${error.hint ? `; ${error.hint}` : ''}`);
    return {
      record: { ...view },
      replay: input,
      ...(view.state === 'unknown' ? { exitCode: ExitCode.pendingOrUnknown } : {}),
    };
  };

  const steps: Record<StepRun['kind'], (step: StepRun, active: PaymentSession) => Promise<StepResult>> = {
    check: async (step, active) => {
      const purchase = checkOptions(camelCased(step.options));
      return { record: accountCheckLine(await active.client.accountCheck(purchase), purchase) };
    },

    pay: async (step, active) => {
      const options = payStepOptions(step);
      // --retry: the TransactionID is the step's, not the attempt's; once a Payment was tried,
      // a retry sends that same Payment again (a new AccountCheck could price it differently).
      const kept = step.kept ?? {};
      kept.transactionId ??= options.txnId ?? generateTransactionId();
      const tried = kept.payment as PaymentInput | undefined;
      const input = tried ?? (await paymentOfStep(options, active.client, kept.transactionId as string));
      if ('refusedCheck' in input) return input.refusedCheck;
      if (options.dryRun) {
        return {
          record: {
            dryRun: true,
            endpoint: active.client.endpoint,
            form: formToObject(maskForm(active.client.paymentForm(input))),
          },
        };
      }
      kept.payment = input;
      return paid(active, input, options.txnId !== undefined || tried !== undefined);
    },

    'repeat-pay': async (step, active) => paid(active, step.replay as PaymentInput, true),

    status: async (step, active) => lookUp(step.options['txn-id'], step.options.wait ?? '0', active),
    // Status until final: `agentpay status --wait`, for two minutes unless told otherwise.
    wait: async (step, active) => lookUp(step.options['txn-id'], step.options.seconds ?? '120', active),
  };

  const lookUp = async (txnId: unknown, wait: unknown, active: PaymentSession): Promise<StepResult> => {
    if (txnId === undefined) throw new UsageError('txn-id is required');
    // status's own --wait rule (a whole number of seconds), with its message.
    const seconds = waitOption(wait);
    const transactionId = txnId === 'fresh' ? generateTransactionId() : transactionIdOption(txnId)!;
    const result = await lookUpStatus(active.client, transactionId, codes, Date.now() + seconds * 1000, {
      signal,
      firstDelayMs: settings.settle.delayMs.value,
    });
    if (result.error) throw result.error;
    return { record: { ...result.view } };
  };

  return async (step) => {
    const active = step.credentials === undefined ? session : session.withCredentials(step.credentials);
    try {
      const { value: result, raw } = await recorder.recording(() => steps[step.kind](step, active));
      return { ...result, record: { ...result.record, ...raw() } };
    } catch (error) {
      if (!(error instanceof RecordedFailure)) throw error;
      const stepError = stepErrorOf(error.failure);
      return { record: { error: stepError, ...error.raw() }, error: stepError };
    }
  };
}
