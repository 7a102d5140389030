import { z } from 'zod';
import { AgentpayError, ExitCode } from '../errors.js';
import type { ExchangeEvent, PaymentInput } from '../gateway/client.js';
import { accountCheckLine, checkOptionsSchema } from '../commands/check.js';
import type { CommandContext, GatewaySession } from '../commands/context.js';
import { executePayment } from '../commands/execute-payment.js';
import { errorOfView, paymentInputOf, resolvePurchase } from '../commands/payment-flow.js';
import { payOptionsSchema } from '../commands/pay.js';
import { parseOptions, purchaseOptionsSchema } from '../commands/purchase-options.js';
import { lookUpStatus, waitOption } from '../commands/status.js';
import { formToObject, maskForm, type FormField } from '../protocol/form.js';
import { parseLosslessJson } from '../protocol/lossless.js';
import { parseAmount } from '../protocol/money.js';
import { InvalidFieldError } from '../protocol/problems.js';
import { generateTransactionId } from '../protocol/transaction-id.js';
import type { StepError, StepExecutor, StepResult, StepRun } from './runner.js';

/**
 * Scenario steps against the gateway, through the same code as the commands: check is
 * `agentpay check`, pay resolves the voucher as `agentpay pay` does and pays through the
 * journal (intent on disk first, settled if the answer is lost), status and wait poll as
 * `agentpay status --wait` does. A gateway's answer, refusals included, is data for the
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
export type ExchangeRecorder = ReturnType<typeof exchangeRecorder>;

/** The step's options under the names the commands' schemas use (`invoice-id` -> invoiceId). */
function camelCased(options: StepRun['options']): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).map(([key, value]) => [key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()), value]));
}

/** `fresh`, or no txn-id at all: a new TransactionID, never used before. */
const freshOr = (value: unknown) => (value === 'fresh' ? undefined : value);

const payStepSchema = purchaseOptionsSchema.extend({
  amount: z.string().min(1, 'amount must not be empty').optional(),
  invoiceId: payOptionsSchema.shape.invoiceId,
  invoice: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, 'invoice is a position in the voucher list, from 1')
    .transform(Number)
    .optional(),
  txnId: payOptionsSchema.shape.txnId,
  dryRun: payOptionsSchema.shape.dryRun,
  raw: z.boolean().default(false),
});

const lookUpStepSchema = z.object({
  txnId: z.string({ error: 'txn-id is required' }),
  // status's own --wait rule (a whole number of seconds), with its message.
  wait: z.unknown().transform((value, ctx) => {
    try {
      return waitOption(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
});

function stepErrorOf(error: unknown): StepError {
  if (error instanceof AgentpayError) return { exitCode: error.exitCode, type: error.name, message: error.message };
  if (error instanceof InvalidFieldError) return { exitCode: ExitCode.usage, type: 'UsageError', message: error.message };
  throw error;
}

export interface GatewayStepsOptions {
  context: CommandContext;
  session: GatewaySession;
  recorder: ExchangeRecorder;
  /** Ctrl+C: a wait step stops polling. */
  signal: AbortSignal;
}

export function gatewayStepExecutor({ context, session, recorder, signal }: GatewayStepsOptions): StepExecutor {
  const { settings, out } = context;
  const codes = settings.codes.table;

  const paid = async (active: GatewaySession, input: PaymentInput, checkReplay: boolean): Promise<StepResult> => {
    const { view } = await executePayment(context, active, input, { checkReplay });
    // Unknown is worth a word beside the record (the gateway's code, the setting to classify it);
    // pending is left to the scenario's own wait steps and assertions.
    const error = view.state === 'unknown' ? errorOfView(view, codes) : undefined;
    if (error) out.warn(`${error.message}${error.hint ? `; ${error.hint}` : ''}`);
    return { record: { ...view }, replay: input, ...(view.state === 'unknown' ? { exitCode: ExitCode.pendingOrUnknown } : {}) };
  };

  const steps: Record<StepRun['kind'], (step: StepRun, active: GatewaySession) => Promise<StepResult>> = {
    check: async (step, active) => {
      const options = parseOptions(checkOptionsSchema, camelCased(step.options));
      const purchase = { service: options.service, account: options.account, amount: options.amount ?? '0', currency: options.currency };
      return { record: accountCheckLine(await active.client.accountCheck(purchase), purchase) };
    },

    pay: async (step, active) => {
      const raw = camelCased(step.options);
      const options = parseOptions(payStepSchema, { ...raw, txnId: freshOr(raw.txnId) });
      const request = { ...options, invoicePosition: options.invoice };
      const transactionId = options.txnId ?? generateTransactionId();
      let input: PaymentInput;
      if (options.raw) {
        // Conformance: exactly the fields written, no AccountCheck, no amount check. Still journaled.
        input = paymentInputOf(request, options.amount!, transactionId);
      } else {
        const { amount, voucher } = await resolvePurchase(active.client, { ...request, ...(options.amount === undefined ? {} : { amount: parseAmount(options.amount, 'amount') }) });
        input = paymentInputOf({ ...request, invoiceId: voucher?.invoiceId ?? request.invoiceId }, amount, transactionId);
      }
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

  const lookUp = async (txnId: unknown, wait: unknown, active: GatewaySession): Promise<StepResult> => {
    const options = parseOptions(lookUpStepSchema, { txnId, wait });
    const transactionId = options.txnId === 'fresh' ? generateTransactionId() : (payOptionsSchema.shape.txnId.parse(options.txnId) as string);
    const result = await lookUpStatus(active.client, transactionId, codes, Date.now() + options.wait * 1000, { signal });
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

