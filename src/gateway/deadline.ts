import { EventEmitter } from 'node:events';

/** The deadlines each stop signal would end, behind one 'abort' listener per signal rather than one per exchange:
 * a listener per exchange kept every later exchange reachable, so a batch's memory grew with its length. Arrays,
 * not Sets, for the same reason (transport.ts). */
const stoppable = new WeakMap<AbortSignal, Deadline[]>();

function stopOn(signal: AbortSignal, deadline: Deadline): void {
  let deadlines = stoppable.get(signal);
  if (deadlines === undefined) {
    const waiting: Deadline[] = [];
    signal.addEventListener(
      'abort',
      () => {
        for (const each of waiting.splice(0)) each.stop(signal.reason);
      },
      { once: true },
    );
    stoppable.set(signal, waiting);
    deadlines = waiting;
  }
  deadlines.push(deadline);
}

/** Takes `item` out of `items`, the last put in its place. */
export function removeFrom<T>(items: T[], item: T): void {
  const index = items.indexOf(item);
  if (index === -1) return;
  items[index] = items.at(-1)!;
  items.pop();
}

/** One deadline for a whole exchange (connect, head and body: only this ends a body that trickles forever) or an
 * earlier stop (Ctrl+C), as an emitter of 'abort': a batch sets many, cheaper than AbortSignal.timeout.
 * Its reason is a TimeoutError as AbortSignal.timeout gives, or the caller's reason. */
export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly stopEarly: AbortSignal | undefined;

  constructor(timeoutMs: number, stopEarly: AbortSignal | undefined) {
    super();
    this.timer = setTimeout(
      () => this.stop(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timeoutMs,
    ).unref();
    this.stopEarly = stopEarly;
    if (stopEarly?.aborted) this.stop(stopEarly.reason);
    else if (stopEarly !== undefined) stopOn(stopEarly, this);
  }

  /** Ends the exchange now: its time ran out, or the stop signal came. */
  stop(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  clear(): void {
    clearTimeout(this.timer);
    const deadlines = this.stopEarly && stoppable.get(this.stopEarly);
    if (deadlines !== undefined) removeFrom(deadlines, this);
  }
}
