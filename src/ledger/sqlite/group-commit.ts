import { setImmediate as nextTurn } from 'node:timers/promises';
import { inWriteTurn, type WriteTurnPlace } from './write-turn.js';

/** One write asked for: its work, its caller's promise, and whether a stop may end its wait. */
interface Asked {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  unstoppable: boolean;
  consequence: string | undefined;
}

// One connection's writes, a transaction at a time; those asked for while one commits go together in the next,
// so a bulk run's rows in flight share one sync. Each caller hears once committed; a failure fails them all.
export class GroupCommit {
  private asked: Asked[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly place: WriteTurnPlace) {}

  /** `work` in a write transaction; `unstoppable`: an answer already learned is written even after a stop. */
  write<T>(work: () => T | Promise<T>, consequence?: string, unstoppable = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.asked.push({ work, resolve: resolve as (value: unknown) => void, reject, unstoppable, consequence });
      this.running ??= this.drain();
    });
  }

  /** Resolves once no write is waiting or running. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.asked.length > 0) {
      await nextTurn();
      const batch = this.asked;
      this.asked = [];
      const place = batch.some((asked) => asked.unstoppable) ? { ...this.place, stop: undefined } : this.place;
      try {
        const results: unknown[] = [];
        await inWriteTurn(
          place,
          async () => {
            for (const asked of batch) results.push(await asked.work());
          },
          batch[0]!.consequence,
        );
        batch.forEach((asked, index) => asked.resolve(results[index]));
      } catch (error) {
        for (const asked of batch) asked.reject(error);
      }
    }
    this.running = undefined;
  }
}
