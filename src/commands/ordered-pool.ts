/** Runs `work` with at most `concurrency` in flight and hands results to `emit` in input order. Neither input
 * nor results are held whole: at most `concurrency * 4` results wait for a slow predecessor, so memory stays
 * flat for a batch of any size. */
export async function forEachOrdered<T, R>(
  source: AsyncIterable<T> | Iterable<T>,
  concurrency: number,
  work: (item: T) => Promise<R>,
  emit: (result: R) => void,
): Promise<void> {
  interface Slot {
    done: boolean;
    result?: R;
    promise: Promise<void>;
  }
  const window: Slot[] = [];
  const maxWindow = concurrency * 4;
  let inFlight = 0;
  let wakeUp: (() => void) | undefined;
  // The first work item that threw: it ends the run (a failed slot never becomes done).
  let failure: { error: unknown } | undefined;

  const flushDone = () => {
    if (failure) throw failure.error;
    while (window.length > 0 && window[0]!.done) emit(window.shift()!.result as R);
  };
  const slotEnded = () => {
    inFlight--;
    const wake = wakeUp;
    wakeUp = undefined;
    wake?.();
  };
  const start = (item: T) => {
    inFlight++;
    const slot: Slot = { done: false, promise: Promise.resolve() };
    // One reaction a slot, not then() and finally(): a bulk run starts thousands.
    slot.promise = work(item).then(
      (result) => {
        slot.result = result;
        slot.done = true;
        slotEnded();
      },
      (error: unknown) => {
        failure ??= { error };
        slotEnded();
      },
    );
    window.push(slot);
    flushDone();
  };
  const room = async () => {
    while (inFlight >= concurrency || window.length >= maxWindow) {
      if (window.length >= maxWindow) await window[0]!.promise;
      else await new Promise<void>((resolve) => (wakeUp = resolve));
      flushDone();
    }
  };

  // A plain iterable is read without for-await, which would add a turn for every item.
  if (Symbol.asyncIterator in source) {
    for await (const item of source) {
      await room();
      start(item);
    }
  } else {
    for (const item of source) {
      if (inFlight >= concurrency || window.length >= maxWindow) await room();
      start(item);
    }
  }
  while (window.length > 0) {
    await window[0]!.promise;
    flushDone();
  }
}
