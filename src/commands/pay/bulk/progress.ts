import type { Output } from '../../../output.js';
import { type Progress, progressBar } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';

/** The progress bar of a bulk run on a terminal's stderr: rows done of all, failures, elapsed, an estimate. */
export interface ProgressBar {
  rowDone(failed: boolean): void;
  /** Writes a data line without the bar in its way (stdout and stderr may be the same terminal). */
  around(write: () => void): void;
  stop(): void;
}

const noBar: ProgressBar = { rowDone: () => undefined, around: (write) => write(), stop: () => undefined };
const redrawMs = 250;

/** Drawn only when stderr is a terminal, and not under --json; elsewhere nothing at all. */
export function startProgress(out: Output, total: number): ProgressBar {
  const stderr = out.stderr;
  if (stderr.isTTY !== true || out.json) return noBar;
  const started = performance.now();
  const progress: Progress = { done: 0, total, failed: 0, elapsedMs: 0 };
  const draw = () => {
    progress.elapsedMs = performance.now() - started;
    out.statusLine(progressBar(progress, stderr.columns || 80, t()));
  };
  const timer = setInterval(draw, redrawMs);
  timer.unref();
  draw();
  return {
    rowDone(failed) {
      progress.done++;
      if (failed) progress.failed++;
    },
    around(write) {
      out.statusLine(undefined);
      write();
      out.flush();
      draw();
    },
    stop() {
      clearInterval(timer);
      out.statusLine(undefined);
    },
  };
}
