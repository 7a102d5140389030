import { EventEmitter } from 'node:events';

/**
 * One deadline for a whole exchange (connect, headers and body: a body that trickles forever
 * is ended only by this), or an earlier stop (Ctrl+C), as an emitter of 'abort' (undici takes
 * it as its signal). A batch sets thousands of these; AbortSignal.timeout costs several times
 * as much. Its reason is what AbortSignal.timeout would give (a TimeoutError), or the
 * caller's reason.
 */
export class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly stopEarly: AbortSignal | undefined;
  private readonly onStop = () => this.abort(this.stopEarly?.reason);

  constructor(timeoutMs: number, stopEarly: AbortSignal | undefined) {
    super();
    this.timer = setTimeout(
      () => this.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timeoutMs,
    ).unref();
    this.stopEarly = stopEarly;
    if (stopEarly?.aborted) this.abort(stopEarly.reason);
    else stopEarly?.addEventListener('abort', this.onStop, { once: true });
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }

  clear(): void {
    clearTimeout(this.timer);
    this.stopEarly?.removeEventListener('abort', this.onStop);
  }
}
