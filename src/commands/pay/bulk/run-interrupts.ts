import { setMaxListeners } from 'node:events';
import { CancelledError, exitCodeOfSignal, type StopSignal } from '../../../errors.js';
import { type Interrupts, stoppedBy } from '../../../interrupts.js';
import type { Output } from '../../../output.js';
import { t } from '../../../run-scope.js';

/** Ctrl+C (or SIGTERM) once: no new rows start; twice: the rows in flight stop settling. */
export function listenForInterrupts(out: Output, signals: Interrupts) {
  const soft = new AbortController();
  const hard = new AbortController();
  // Each row in flight listens to the hard stop: more than Node's 10 at a higher --concurrency.
  setMaxListeners(0, hard.signal);
  let first: StopSignal | undefined;
  const name = (signal: StopSignal) => (signal === 'SIGINT' ? 'Ctrl+C' : 'SIGTERM');
  const on = (signal: StopSignal) => {
    if (first !== undefined) return hard.abort();
    first = signal;
    soft.abort();
    out.note(t().bulk.interrupt(name(signal)));
  };
  // main.ts hears the signals; one that came before this run listened counts as its first.
  const release = signals.listen(on);
  const before = stoppedBy(signals);
  if (before !== undefined) on(before);
  return {
    soft: soft.signal,
    hard: hard.signal,
    by: () => (first === undefined ? undefined : name(first)),
    /** The exit code of a run the signal stopped: 130 for SIGINT, 143 for SIGTERM. */
    exitCode: () => exitCodeOfSignal(first ?? 'SIGINT'),
    /** Before any Payment: an interrupt ends the run, nothing paid. */
    check: () => {
      if (first !== undefined)
        throw new CancelledError(
          `${name(first)}: stopped before any payment; nothing was paid`,
          exitCodeOfSignal(first),
        );
    },
    release,
  };
}
