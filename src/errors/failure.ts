import { DeskRuleRefusedError } from '../desk-rule-error.js';
import type { Catalogue } from '../i18n/en.js';
import { InvalidFieldError } from '../protocol/problems.js';
import { AgentpayError, InterruptedError } from './agentpay-error.js';
import type { ErrorLine } from './error-line.js';
import { ExitCode, type ExitCodeValue, exitCodeOfSignal, type StopSignal } from './exit-codes.js';

/** An error as the boundary reports it; `known`: one of ours, its text ours too (a bug's is redacted). */
export interface Failure extends ErrorLine {
  known: boolean;
  bodySample: string | undefined;
  stack: string | undefined;
}

/** After SIGINT or SIGTERM, "cannot reach the gateway" is what the signal did (it cut the exchange
 * short). Anything else stands: a payment left unknown (3), an outcome recorded nowhere (6), a refusal. */
function asSignalled(error: unknown, signal: StopSignal | undefined, said: Catalogue): unknown {
  if (signal === undefined || !(error instanceof AgentpayError) || error.exitCode !== ExitCode.unreachable)
    return error;
  return new InterruptedError(signal, said.errors.stopped(signal));
}

/** The exit code a run that threw `error` ends with: the error's own, 2 for a bad field, 70 for a bug. */
export function exitCodeOfError(error: unknown, signal: StopSignal | undefined): ExitCodeValue {
  if (error === undefined) return ExitCode.success;
  if (!(error instanceof AgentpayError)) return error instanceof InvalidFieldError ? ExitCode.usage : ExitCode.internal;
  return signal !== undefined && error.exitCode === ExitCode.unreachable ? exitCodeOfSignal(signal) : error.exitCode;
}

/** What the boundary says of `error`: an error no class describes is a bug, "InternalError", exit 70. */
export function failureOf(thrown: unknown, said: Catalogue, signal: StopSignal | undefined): Failure {
  const error = asSignalled(thrown, signal, said);
  const known = error instanceof AgentpayError || error instanceof InvalidFieldError;
  const message =
    error instanceof InvalidFieldError
      ? said.options.field(error)
      : error instanceof Error
        ? error.message
        : String(error);
  return {
    exitCode: exitCodeOfError(error, undefined),
    type: known ? error.name : 'InternalError',
    rule: error instanceof DeskRuleRefusedError ? error.rule : undefined,
    message,
    hint: error instanceof AgentpayError ? error.hint : known ? undefined : said.boundary.internalErrorHint,
    known,
    bodySample: error instanceof AgentpayError ? error.bodySample : undefined,
    stack: !known && error instanceof Error ? error.stack : undefined,
  };
}
