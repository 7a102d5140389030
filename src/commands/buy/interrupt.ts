/** Thrown by untilInterrupted; each caller turns it into what Ctrl+C means at that point. */
export class Interrupted extends Error {}

/**
 * Waits for `work` unless the person presses Ctrl+C first. The work is left to finish on its
 * own (its failure handled here); the command then closes the connection under it.
 */
export function untilInterrupted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
