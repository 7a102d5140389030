import { InterruptedError, type StopSignal } from './errors.js';

/** SIGINT (Ctrl+C) and SIGTERM as a command hears them. main.ts alone listens to the process
 * (a signal handler belongs there) and hands one of these down through the command context. */
export interface Interrupts {
  /** Aborted at the first SIGINT or SIGTERM; its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** Each signal as it comes, the first included (a bulk run's second Ctrl+C); returns what stops listening. */
  listen(listener: (signal: StopSignal) => void): () => void;
}

/** The signal that stopped the command, once one came. */
export function stoppedBy(interrupts: Interrupts): StopSignal | undefined {
  return interrupts.signal.aborted ? (interrupts.signal.reason as StopSignal) : undefined;
}

/** For a context made without main.ts (tests, the build's scripts): no signal ever comes. */
export const noInterrupts: Interrupts = { signal: new AbortController().signal, listen: () => () => undefined };

/** Ends a command a signal stopped, at a point where stopping leaves nothing half done. */
function throwIfInterrupted(interrupts: Interrupts): void {
  const signal = stoppedBy(interrupts);
  if (signal !== undefined) throw new InterruptedError(signal);
}

/** The items of `source` until SIGINT or SIGTERM, then InterruptedError: a reading command
 * (history, report, ledger export and import) stops between two items, wherever it reads from. */
export async function* untilInterrupted<T>(source: AsyncIterable<T>, interrupts: Interrupts): AsyncGenerator<T> {
  for await (const item of source) {
    throwIfInterrupted(interrupts);
    yield item;
  }
}
