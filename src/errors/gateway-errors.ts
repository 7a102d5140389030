import { gatewayFaultHint, gatewayFaultMessage, lostAnswerReason } from '../i18n/gateway-fault-words.js';
import type { GatewayFault, NotUnderstoodFault, UnreachableFault } from '../protocol/gateway-fault.js';
import { askedText, type ReplayMiss } from '../protocol/replay-miss.js';
import { t } from '../run-scope.js';
import { AgentpayError, type AgentpayErrorOptions, UsageError } from './agentpay-error.js';
import { ExitCode } from './exit-codes.js';

/** What a gateway's fault keeps besides its data. */
type GatewayFaultOptions = Pick<AgentpayErrorOptions, 'cause' | 'bodySample'>;

/** The gateway could not be reached, or timed out on a request that changes nothing (`fault` says how). */
export class GatewayUnreachableError extends AgentpayError {
  override name = 'GatewayUnreachableError';
  readonly fault: UnreachableFault;
  constructor(fault: UnreachableFault, options: GatewayFaultOptions = {}) {
    super(gatewayFaultMessage(fault, t()), ExitCode.unreachable, { ...options, hint: gatewayFaultHint(fault, t()) });
    this.fault = fault;
  }
}

/** The gateway answered, but not with an envelope we understand (`fault` says how). */
export class GatewayProtocolError extends AgentpayError {
  override name = 'GatewayProtocolError';
  readonly fault: NotUnderstoodFault;
  constructor(fault: NotUnderstoodFault, options: GatewayFaultOptions = {}) {
    super(gatewayFaultMessage(fault, t()), ExitCode.notUnderstood, { ...options, hint: gatewayFaultHint(fault, t()) });
    this.fault = fault;
  }
}

/** A final refusal by the gateway: a failedCodes code for a payment, anything but 10 for an account check. */
export class GatewayRefusedError extends AgentpayError {
  override name = 'GatewayRefusedError';
  readonly status: string;
  constructor(message: string, status: string, options: { hint?: string } = {}) {
    super(message, ExitCode.declined, options);
    this.status = status;
  }
}

/** The gateway says the transaction is still in progress. */
export class TransactionPendingError extends AgentpayError {
  override name = 'TransactionPendingError';
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, ExitCode.pendingOrUnknown, options);
  }
}

/** The command that sends a Payment again; `masked`: a secret typed in it is shown as ***, to be typed back. */
export interface RetryCommand {
  command: string;
  masked: boolean;
}

/** A Payment may have reached the gateway but its answer was lost, so it may have been made:
 * never reported as a failure (spec 1: use Status when no response was received). */
export class PaymentOutcomeUnknownError extends AgentpayError {
  override name = 'PaymentOutcomeUnknownError';
  readonly transactionId: string;
  /** Why the answer is missing, without the "outcome is unknown" preamble. */
  readonly reason: string;
  /** The gateway's fault behind it, when the Payment's own exchange went wrong (the client's). */
  readonly fault: GatewayFault | undefined;
  /** Its hint is the general one, which a command can complete with the command that retries it. */
  private readonly retryable: boolean;
  /** `why`: the words of the purchase layer, or the gateway's fault, said here in the run's language. */
  constructor(
    transactionId: string,
    why: string | GatewayFault,
    options: { cause?: unknown; bodySample?: string | undefined; hint?: string; retry?: RetryCommand } = {},
  ) {
    const reason = typeof why === 'string' ? why : lostAnswerReason(why, t());
    super(t().errors.outcomeUnknown(transactionId, reason), ExitCode.pendingOrUnknown, {
      ...options,
      hint: options.hint ?? t().errors.outcomeUnknownHint(transactionId, options.retry),
    });
    this.transactionId = transactionId;
    this.reason = reason;
    this.fault = typeof why === 'string' ? undefined : why;
    this.retryable = options.hint === undefined;
  }

  /** The same error, its hint naming `command`: the whole command line that sends this Payment again. */
  withRetry(command: RetryCommand): PaymentOutcomeUnknownError {
    if (!this.retryable) return this;
    const options = { cause: this.cause, bodySample: this.bodySample, retry: command };
    return new PaymentOutcomeUnknownError(this.transactionId, this.fault ?? this.reason, options);
  }
}

/** A request no recording of the replay answers: nothing left this machine and nothing was made,
 * so exit 2 as for input that lacks a piece (the recordings are the command's input). */
export class ReplayMissError extends UsageError {
  override name = 'ReplayMissError';
  /** What had no recording (askedText). */
  readonly asked: string;
  readonly paymentUnanswered: boolean;
  constructor(miss: ReplayMiss) {
    const said = t().replay;
    const asked = askedText(miss);
    const meaning = miss.operation === 'Payment' ? 'payment' : miss.paymentUnanswered ? 'neverMade' : 'lookUp';
    super(said.noRecording(asked, meaning), { hint: said.noRecordingHint });
    this.asked = asked;
    this.paymentUnanswered = miss.paymentUnanswered;
  }
}
