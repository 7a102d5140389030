/** Thrown by untilInterrupted; each caller turns it into what Ctrl+C means at that point. */
export class Interrupted extends Error {}

// Waits for `work` unless Ctrl+C comes first; the work finishes on its own (its failure handled here) and the
// command closes the connection under it.
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
