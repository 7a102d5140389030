import { AgentpayError, ExitCode, UsageError } from '../errors.js';
import type { ExchangeEvent, PaymentInput } from '../gateway/client.js';
import { amountOption, checkOptions, invoiceIdOption, purchaseOptions, transactionIdOption, waitOption } from '../options/purchase.js';
import { optionalText, switchOption } from '../options/values.js';
import { type FormField, formToObject, maskForm } from '../protocol/form.js';
import { parseLosslessJson } from '../protocol/lossless.js';
import { InvalidFieldError } from '../protocol/problems.js';
import { generateTransactionId } from '../protocol/transaction-id.js';
import { accountCheckLine } from '../purchase/account-check.js';
import { executePayment } from '../purchase/execute-payment.js';
import { errorOfView } from '../purchase/outcome.js';
import type { PaymentSession, PurchaseContext } from '../purchase/session.js';
import { lookUpStatus } from '../purchase/status-look-up.js';
import { type PurchaseRequest, paymentInputOf, resolvePurchase } from '../purchase/voucher-choice.js';
import type { StepError, StepExecutor, StepResult, StepRun } from './runner.js';

/**
 * Scenario steps against the gateway, through the purchase layer and option parsers the
 * commands use: check is `agentpay check`, pay resolves the voucher as `agentpay pay` does
 * and pays through the journal (intent on disk first, settled if the answer is lost), status
 * and wait poll as `agentpay status --wait` does. A gateway's answer, refusals included, is data for the
 * step's expectations; only a step that could not do its job (unreachable, not understood,
 * input refused before sending) carries an error.
 */

/** The last request and answer of a step as they went over the wire (password masked). */
export function exchangeRecorder() {
  let request: FormField[] | undefined;
  let body: string | undefined;
  return {
    listen(event: ExchangeEvent): void {
      if (event.direction === 'request') {
        request = event.form;
        body = undefined;
      } else if (event.direction === 'response') body = event.body;
    },
    reset(): void {
      request = undefined;
      body = undefined;
    },
    /** `envelope`: the last answer as received, numbers exact; `request`: the last form sent. */
    raw(): { envelope: unknown; request: Record<string, string> | null } {
      let envelope: unknown = null;
      try {
        if (body !== undefined) envelope = parseLosslessJson(body);
      } catch {
        // Not JSON: the step's error says so; there is no envelope to show.
      }
      return { envelope, request: request === undefined ? null : formToObject(request) };
    },
  };
}
type ExchangeRecorder = ReturnType<typeof exchangeRecorder>;

/** The step's options under the names the commands' parsers read (`invoice-id` -> invoiceId). */
function camelCased(options: StepRun['options']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()), value]));
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
  if (position !== undefined && !/^[1-9]\d{0,5}$/.test(position)) throw new UsageError('invoice is a position in the voucher list, from 1');
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

/**
 * The Payment of a pay step: the voucher resolved as `agentpay pay` does, or with `raw` the
 * fields exactly as written (no AccountCheck, no amount check; still journaled).
 */
async function paymentOfStep(options: PayStep, client: PaymentSession['client']): Promise<PaymentInput> {
  const transactionId = options.txnId ?? generateTransactionId();
  if (options.raw) {
    const { service, account, currency, invoiceId } = options;
    return { service, account, currency, transactionId, amount: options.amount ?? '', invoiceId };
  }
  const choice = await resolvePurchase(client, { ...options, amount: amountOption(options.amount, 'amount') });
  return paymentInputOf(options, choice, transactionId);
}

function stepErrorOf(error: unknown): StepError {
  if (error instanceof AgentpayError) return { exitCode: error.exitCode, type: error.name, message: error.message };
  if (error instanceof InvalidFieldError) return { exitCode: ExitCode.usage, type: 'UsageError', message: error.message };
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

export function gatewayStepExecutor({ context, session, recorder, signal, lifted = [] }: GatewayStepsOptions): StepExecutor {
  const { settings, out } = context;
  const codes = settings.codes.table;

  const paid = async (active: PaymentSession, input: PaymentInput, checkReplay: boolean): Promise<StepResult> => {
    // Limits hold for a scenario too; its payments repeat one another on purpose (docs/desk-safety.md).
    const { view } = await executePayment(context, active, input, { checkReplay, notes: { overrides: lifted }, desk: { overLimit: false, duplicates: 'skip' } });
    // Unknown is worth a word beside the record (the gateway's code, the setting to classify it);
    // pending is left to the scenario's own wait steps and assertions.
    const error = view.state === 'unknown' ? errorOfView(view, codes) : undefined;
    if (error) out.warn(`${error.message}${error.hint ? `; ${error.hint}` : ''}`);
    return { record: { ...view }, replay: input, ...(view.state === 'unknown' ? { exitCode: ExitCode.pendingOrUnknown } : {}) };
  };

  const steps: Record<StepRun['kind'], (step: StepRun, active: PaymentSession) => Promise<StepResult>> = {
    check: async (step, active) => {
      const purchase = checkOptions(camelCased(step.options));
      return { record: accountCheckLine(await active.client.accountCheck(purchase), purchase) };
    },

    pay: async (step, active) => {
      const options = payStepOptions(step);
      const input = await paymentOfStep(options, active.client);
      if (options.dryRun) {
        return { record: { dryRun: true, endpoint: active.client.endpoint, form: formToObject(maskForm(active.client.paymentForm(input))) } };
      }
      return paid(active, input, options.txnId !== undefined);
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
    const result = await lookUpStatus(active.client, transactionId, codes, Date.now() + seconds * 1000, { signal });
    if (result.error) throw result.error;
    return { record: { ...result.view } };
  };

  return async (step) => {
    recorder.reset();
    const active = step.credentials === undefined ? session : session.withCredentials(step.credentials);
    try {
      const result = await steps[step.kind](step, active);
      return { ...result, record: { ...result.record, ...recorder.raw() } };
    } catch (error) {
      const stepError = stepErrorOf(error);
      return { record: { error: stepError, ...recorder.raw() }, error: stepError };
    }
  };
}
