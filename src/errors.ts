import { t } from './i18n/current.js';
import type { StorageAction } from './i18n/en.js';
import { gatewayFaultHint, gatewayFaultMessage, lostAnswerReason } from './i18n/gateway-fault-words.js';
import type { GatewayFault, NotUnderstoodFault, UnreachableFault } from './protocol/gateway-fault.js';
import { askedText, type ReplayMiss } from './protocol/replay-miss.js';

/**
 * Every failure the user can see is one of these classes; the error boundary in main.ts maps
 * them to exit codes. The codes are a contract scripts depend on (README "Exit codes").
 */
export const ExitCode = {
  success: 0,
  declined: 1,
  usage: 2,
  pendingOrUnknown: 3,
  unreachable: 4,
  notUnderstood: 5,
  /** The journal (or another local file agentpay keeps) cannot be read or written. */
  localStorage: 6,
  /** Refused by one of the desk's rules (a duplicate, a limit, an approval needed, no open shift): nothing was sent. */
  deskRule: 7,
  /** A bug: an error no class here describes (EX_SOFTWARE of sysexits.h). */
  internal: 70,
  /** Stopped by SIGINT (Ctrl+C), as a shell reports a process that signal ended (128 + 2). */
  interrupted: 130,
  /** Stopped by SIGTERM (cron, a service manager, `kill`), as a shell reports it (128 + 15). */
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface AgentpayErrorOptions {
  cause?: unknown;
  hint?: string;
  /** The first bytes of a gateway answer behind the error, shown under --verbose only. */
  bodySample?: string | undefined;
}

export class AgentpayError extends Error {
  // Each class says its own name, the type --json and scenario reports show: the bundle keeps
  // no function names (scripts/bundle.mjs), and may rename a class.
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

/**
 * A request no recording of the replay answers: nothing left this machine and nothing was
 * made, so it is exit 2, as for input that lacks a piece (the recordings are the command's
 * input), never an unknown outcome.
 */
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

/**
 * The voucher a purchase names cannot be had, found before anything is sent: the reason alone
 * (a bulk row states it under its column) and the field it is about; the message adds that
 * no payment was sent.
 */
export class VoucherChoiceError extends UsageError {
  override name = 'VoucherChoiceError';
  readonly reason: string;
  readonly field: 'amount' | 'invoice';
  constructor(reason: string, field: 'amount' | 'invoice', options: { hint?: string; rowReason?: string } = {}) {
    super(`${reason}; ${t().errors.noPaymentSent}`, options.hint === undefined ? {} : { hint: options.hint });
    this.reason = options.rowReason ?? reason;
    this.field = field;
  }
}

/**
 * A dynamic service whose voucher list is empty for this account now: nothing can be bought,
 * and nothing was sent. Not a static service (vouchers.ts), so never paid with a free amount.
 */
export class EmptyVoucherListError extends VoucherChoiceError {
  override name = 'EmptyVoucherListError';
}

/** What a gateway's fault keeps besides its data. */
type GatewayFaultOptions = Pick<AgentpayErrorOptions, 'cause' | 'bodySample'>;

/**
 * The gateway could not be reached, or timed out on a request that changes nothing. It carries
 * what happened (`fault`); its message and hint are made from it in the chosen language.
 */
export class GatewayUnreachableError extends AgentpayError {
  override name = 'GatewayUnreachableError';
  readonly fault: UnreachableFault;
  constructor(fault: UnreachableFault, options: GatewayFaultOptions = {}) {
    super(gatewayFaultMessage(fault, t()), ExitCode.unreachable, { ...options, hint: gatewayFaultHint(fault, t()) });
    this.fault = fault;
  }
}

/** The consequence a failure before a Payment could leave states: what execute-payment looks for. */
export const noPaymentSent = (): string => t().errors.noPaymentSent;

/**
 * The team ledger (a PostgreSQL database) cannot be reached, or refused what was asked of it:
 * a payment whose intent it cannot take is never sent (exit 4, as for an unreachable gateway).
 */
export class LedgerUnreachableError extends AgentpayError {
  override name = 'LedgerUnreachableError';
  readonly ledger: string;
  readonly reason: string;
  /** What it meant for the payment at hand, when the message says so ("no payment was sent"). */
  readonly consequence: string | undefined;
  constructor(ledger: string, reason: string, options: { consequence?: string; hint?: string; cause?: unknown } = {}) {
    super(
      `${t().errors.ledgerUnreachable(ledger, reason)}${options.consequence ? `; ${options.consequence}` : ''}`,
      ExitCode.unreachable,
      {
        cause: options.cause,
        hint: options.hint ?? t().errors.ledgerUnreachableHint,
      },
    );
    this.ledger = ledger;
    this.reason = reason;
    this.consequence = options.consequence;
  }

  /** The same failure, saying what it meant for the payment at hand. */
  withConsequence(consequence: string): LedgerUnreachableError {
    return new LedgerUnreachableError(this.ledger, this.reason, {
      consequence,
      cause: this.cause,
      ...(this.hint ? { hint: this.hint } : {}),
    });
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

/** The command that sends a Payment again; `masked`: a secret typed in it is shown as ***, to be typed back. */
export interface RetryCommand {
  command: string;
  masked: boolean;
}

/**
 * A Payment may have reached the gateway but its answer was lost. It may have been made:
 * this is never reported as a failure (spec 1: use Status when no response was received).
 */
export class PaymentOutcomeUnknownError extends AgentpayError {
  override name = 'PaymentOutcomeUnknownError';
  readonly transactionId: string;
  /** Why the answer is missing, without the "outcome is unknown" preamble. */
  readonly reason: string;
  /** The gateway's fault behind it, when the Payment's own exchange went wrong (the client's). */
  readonly fault: GatewayFault | undefined;
  /** Whether its hint is the general one, which a command can complete with the command that retries it. */
  private readonly retryable: boolean;
  /** `why`: the words of the purchase layer, or the gateway's fault, said here in the chosen language. */
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

/** The user pressed Ctrl+C or Esc before anything was sent. */
export class CancelledError extends AgentpayError {
  override name = 'CancelledError';
  constructor(message = t().errors.cancelled, exitCode: ExitCodeValue = ExitCode.interrupted) {
    super(message, exitCode);
  }
}

/** The signals that stop a command (main.ts listens for them); every other one keeps Node's default. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The exit code of a command a signal stopped: 130 for SIGINT, 143 for SIGTERM (README "Exit codes"). */
export function exitCodeOfSignal(signal: StopSignal): ExitCodeValue {
  return signal === 'SIGTERM' ? ExitCode.terminated : ExitCode.interrupted;
}

/**
 * SIGINT (Ctrl+C) or SIGTERM stopped the command before it finished, with nothing left
 * unknown: exit 130 or 143. A payment the signal caught on its way is PaymentOutcomeUnknownError
 * instead (exit 3): it may have been made.
 */
export class InterruptedError extends CancelledError {
  override name = 'InterruptedError';
  readonly signal: StopSignal;
  constructor(signal: StopSignal, message = t().errors.stopped(signal)) {
    super(message, exitCodeOfSignal(signal));
    this.signal = signal;
  }
}

/** The gateway answered with a final refusal: a failedCodes code for a payment, anything but 10 for an account check. */
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

/**
 * A file agentpay keeps on this machine (the journal) cannot be read or written: a full disk
 * (ENOSPC), a read-only file system (EROFS), permissions (EACCES), a directory where the file
 * should be (EISDIR). Not the gateway's doing, so never exit 1 ("declined").
 */
export class LocalStorageError extends AgentpayError {
  override name = 'LocalStorageError';
  /** What could not be done: "write the journal", "read the journal". */
  readonly what: StorageAction;
  readonly path: string;
  /** The errno code (EROFS, ENOSPC, ...), or undefined when the system gave none. */
  readonly code: string | undefined;
  /** What the failure meant, as its message states it ("no payment was sent"). */
  readonly consequence: string | undefined;
  constructor(
    what: StorageAction,
    path: string,
    cause: unknown,
    options: { consequence?: string; hint?: string } = {},
  ) {
    const code = errnoCodeOf(cause);
    const reason = code ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      `${t().errors.localStorage(what, path, reason)}${options.consequence ? `; ${options.consequence}` : ''}`,
      ExitCode.localStorage,
      {
        cause,
        hint: options.hint ?? localStorageHint(code),
      },
    );
    this.what = what;
    this.path = path;
    this.code = code;
    this.consequence = options.consequence;
  }
}

/** The errno code of a failed system call (EROFS, ENOSPC, ...), if `error` is one. */
export function errnoCodeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** The hint for a system call's failure, by its errno code; a quota is a full disk, EPERM is EACCES. */
const hintOfCode = {
  EROFS: 'EROFS',
  ENOSPC: 'ENOSPC',
  EDQUOT: 'ENOSPC',
  EACCES: 'EACCES',
  EPERM: 'EACCES',
  EISDIR: 'EISDIR',
} as const;

function localStorageHint(code: string | undefined): string {
  const key =
    code !== undefined && Object.hasOwn(hintOfCode, code) ? hintOfCode[code as keyof typeof hintOfCode] : 'other';
  return t().errors.localStorageHints[key];
}

/** A batch's exit code: the most severe of its items (70 > 6 > 5 > 4 > 3 > 7 > 2 > 1 > 143 > 130 > 0). */
export function mostSevere(codes: Iterable<ExitCodeValue>): ExitCodeValue {
  const order: readonly ExitCodeValue[] = [0, 130, 143, 1, 2, 7, 3, 4, 5, 6, 70];
  const rank = (code: ExitCodeValue) => order.indexOf(code);
  let worst: ExitCodeValue = ExitCode.success;
  for (const code of codes) if (rank(code) > rank(worst)) worst = code;
  return worst;
}
