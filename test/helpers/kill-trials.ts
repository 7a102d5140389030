import type { ChildProcess } from 'node:child_process';
import { onTestFailed } from 'vitest';
import { seededRandom } from './seeded-random.js';

/**
 * Pays `trials` times, SIGKILLing each process at a random point. A full pay run on this
 * machine, now (the median of three, unkilled, held to the same checks), sets the window: one
 * kill in each of `trials` equal slices of it, a little past a typical run, so start-up, the
 * exchange and after it are all hit every run. A new seed each run, printed on failure:
 * AGENTPAY_TEST_SEED=<seed> replays that run's kills. `npm run trials` kills hundreds of times.
 */
export async function payKilledAtRandomPoints(
  pay: (label: string, index: number) => ChildProcess,
  trials: number,
): Promise<void> {
  const closed = (child: ChildProcess) => new Promise((resolve) => child.once('close', resolve));
  const fullRuns: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    await closed(pay(`kill-full-${run}`, run));
    fullRuns.push(performance.now() - started);
  }
  const fullRunMs = fullRuns.sort((a, b) => a - b)[1]!;
  const seed = Number(process.env.AGENTPAY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
  onTestFailed(() => console.error(`kill trials: AGENTPAY_TEST_SEED=${seed}`));
  const random = seededRandom(seed);
  for (let trial = 0; trial < trials; trial++) {
    const child = pay(`kill-${trial}`, trial);
    const done = closed(child);
    const delay = Math.floor(((trial + random()) / trials) * fullRunMs * 1.25);
    await new Promise((resolve) => setTimeout(resolve, delay));
    child.kill('SIGKILL');
    await done;
  }
}
