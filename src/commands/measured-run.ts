import { exitCodeOfError } from '../errors/failure.js';
import { ExitCode, type ExitCodeValue, errnoCodeOf, LocalStorageError, UsageError } from '../errors.js';
import { stoppedBy } from '../interrupts.js';
import type { JobFigures } from '../metrics/exposition.js';
import { parseOptions } from '../options/definition.js';
import { t } from '../run-scope.js';
import type { CommandContext } from './context.js';
import { metricsOptions } from './metrics-options.js';

/** A command's run that counts what a monitor watches into `figures` as it goes. */
export type MeasuredRunner = (rawOptions: unknown, context: CommandContext, figures: JobFigures) => Promise<void>;

/** A job that ran to its end: 0, 1 (refused rows, differences with a registry: a person must look)
 * or 3 (payments left open). Any other code, or a signal, leaves its last success where it was. */
const ranThrough: ReadonlySet<ExitCodeValue> = new Set([
  ExitCode.success,
  ExitCode.declined,
  ExitCode.pendingOrUnknown,
]);

function storageError(path: string, error: unknown): unknown {
  if (errnoCodeOf(error) === undefined) return error;
  return new LocalStorageError('write the metrics file', path, error, { hint: t().metrics.writeHint });
}

/** A command's runner with `--metrics-file`: the run timed, its metrics file written once it ends,
 * however it ended (docs/metrics.md). `jobOf` gives the job label when `--metrics-job` does not. */
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
    const exitCode = exitCodeOfError(failure?.error, signal);
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
