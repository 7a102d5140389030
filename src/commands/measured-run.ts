import {
  AgentpayError,
  ExitCode,
  type ExitCodeValue,
  errnoCodeOf,
  exitCodeOfSignal,
  LocalStorageError,
  type StopSignal,
  UsageError,
} from '../errors.js';
import { t } from '../i18n/current.js';
import { stoppedBy } from '../interrupts.js';
import type { JobFigures } from '../metrics/exposition.js';
import { parseOptions } from '../options/definition.js';
import { InvalidFieldError } from '../protocol/problems.js';
import type { CommandContext } from './context.js';
import { metricsOptions } from './metrics-options.js';

/** A command's run that counts what a monitor watches into `figures` as it goes. */
export type MeasuredRunner = (rawOptions: unknown, context: CommandContext, figures: JobFigures) => Promise<void>;

/**
 * The exit codes of a job that ran to its end: 0, 1 (a person must look: refused rows,
 * differences with a registry) and 3 (payments left open). The metrics say what it found; any
 * other code (usage, an unreachable gateway, an unreadable ledger, a bug) or a signal means the
 * job did not do its work, and its last success stays where it was.
 */
const ranThrough: ReadonlySet<ExitCodeValue> = new Set([
  ExitCode.success,
  ExitCode.declined,
  ExitCode.pendingOrUnknown,
]);

/** The exit code main.ts will give for what the run threw (nothing: 0). */
function exitCodeOf(error: unknown, signal: StopSignal | undefined): ExitCodeValue {
  if (error === undefined) return ExitCode.success;
  if (!(error instanceof AgentpayError)) return error instanceof InvalidFieldError ? ExitCode.usage : ExitCode.internal;
  // As main.ts says it: after a signal, "cannot reach the gateway" is what the signal did.
  if (signal !== undefined && error.exitCode === ExitCode.unreachable) return exitCodeOfSignal(signal);
  return error.exitCode;
}

function storageError(path: string, error: unknown): unknown {
  if (errnoCodeOf(error) === undefined) return error;
  return new LocalStorageError('write the metrics file', path, error, { hint: t().metrics.writeHint });
}

/**
 * A command's runner with `--metrics-file`: the run timed, and its metrics file written once it
 * ends, whether it succeeded, failed or was stopped by SIGINT or SIGTERM (docs/metrics.md).
 * `jobOf` gives the job label when `--metrics-job` does not.
 */
export function measured(jobOf: (rawOptions: unknown) => string, run: MeasuredRunner) {
  return async (rawOptions: unknown, context: CommandContext): Promise<void> => {
    const { metricsFile: path, metricsJob } = parseOptions(rawOptions, metricsOptions);
    const figures: JobFigures = {};
    if (path === undefined) {
      if (metricsJob !== undefined) throw new UsageError(t().metrics.jobWithoutFile);
      return run(rawOptions, context, figures);
    }
    const file = await import('../metrics/metrics-file.js');
    // A directory it cannot write to is refused before the job does anything.
    try {
      file.checkMetricsDirectory(path);
    } catch (error) {
      throw storageError(path, error);
    }
    const job = metricsJob ?? jobOf(rawOptions);
    const started = performance.now();
    let failure: { error: unknown } | undefined;
    try {
      await run(rawOptions, context, figures);
    } catch (error) {
      failure = { error };
    }
    if (figures.notAJob) {
      if (failure) throw failure.error;
      return;
    }
    const durationMs = performance.now() - started;
    const endedAt = Date.now();
    const signal = stoppedBy(context.interrupts);
    const exitCode = exitCodeOf(failure?.error, signal);
    const succeeded = signal === undefined && ranThrough.has(exitCode);
    const lastSuccessAt = succeeded ? endedAt : file.previousLastSuccess(path, job);
    try {
      file.writeMetricsFile(path, { job, endedAt, lastSuccessAt, durationMs, exitCode, figures });
    } catch (error) {
      const problem = storageError(path, error);
      // The job's own failure is what the run ends with; the file's is told beside it.
      if (failure === undefined) throw problem;
      context.out.warn(problem instanceof Error ? problem.message : String(problem));
    }
    if (failure) throw failure.error;
  };
}
