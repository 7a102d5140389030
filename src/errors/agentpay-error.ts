import { t } from '../run-scope.js';
import { ExitCode, type ExitCodeValue, exitCodeOfSignal, type StopSignal } from './exit-codes.js';

export interface AgentpayErrorOptions {
  cause?: unknown;
  hint?: string;
  /** The first bytes of a gateway answer behind the error, shown under --verbose only. */
  bodySample?: string | undefined;
}

/** Every failure the user can see is one of its subclasses, each with its exit code (main.ts reports them). */
export class AgentpayError extends Error {
  // The type --json and scenario reports show: the bundle keeps no function names (scripts/bundle.mjs).
  override name = 'AgentpayError';
  readonly exitCode: ExitCodeValue;
  /** A next step for the user, printed after the message. */
  readonly hint: string | undefined;
  readonly bodySample: string | undefined;
  constructor(message: string, exitCode: ExitCodeValue, options: AgentpayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = exitCode;
    this.hint = options.hint;
    this.bodySample = options.bodySample;
  }
}

/** Bad input or usage: nothing was sent. */
export class UsageError extends AgentpayError {
  override name = 'UsageError';
  constructor(message: string, options: { cause?: unknown; hint?: string } = {}) {
    super(message, ExitCode.usage, options);
  }
}

/** The user pressed Ctrl+C or Esc before anything was sent. */
export class CancelledError extends AgentpayError {
  override name = 'CancelledError';
  constructor(message = t().errors.cancelled, exitCode: ExitCodeValue = ExitCode.interrupted) {
    super(message, exitCode);
  }
}

/** SIGINT or SIGTERM stopped the command with nothing left unknown (exit 130 or 143). A payment
 * the signal caught on its way is PaymentOutcomeUnknownError instead (exit 3): it may have been made. */
export class InterruptedError extends CancelledError {
  override name = 'InterruptedError';
  readonly signal: StopSignal;
  constructor(signal: StopSignal, message = t().errors.stopped(signal)) {
    super(message, exitCodeOfSignal(signal));
    this.signal = signal;
  }
}
