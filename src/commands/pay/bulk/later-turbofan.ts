import { setFlagsFromString } from 'node:v8';

/**
 * While a bulk run's exchanges go on, V8's TurboFan optimises a function three times later than
 * by default. TurboFan compiles on background threads: a run of a thousand rows had it compile
 * ~150 functions, ~640 ms of CPU (most of it inlining), beside the main thread, on a machine
 * whose other core also serves the gateway or the next process. With three times V8's budget
 * fewer, hotter functions are compiled: the run uses ~20% less CPU and ends sooner
 * (docs/performance.md, "Bulk top-ups", 2026-11-27).
 *
 * V8 11 (Node 20) counts a function's way to TurboFan in bytecode run (the interrupt budget);
 * V8 12 (Node 22) in calls, and knows no interrupt budget (V8 would name it on stderr). V8 13
 * (Node 24) counts calls too, but a cache made after its count was set, even to the default it
 * lists, is refused: it is left as it is, as is any other V8.
 *
 * Set after the run's scripts are loaded (the bundle, undici, pg), and set back to V8's default
 * when the exchanges end: V8 keeps a code cache only under the flags it was made with, and
 * undici's and pg's caches are learned when a process exits, so they must be made under the
 * flags every other batch runs with. V8's flags hash leaves out a flag at its default value.
 */
const v8Defaults: Readonly<Record<number, readonly [flag: string, value: number]>> = {
  11: ['--interrupt-budget', 67_584],
  12: ['--invocation-count-for-turbofan', 3_000],
};

const later = 3;

/** Sets the budget; returns what sets it back. */
export function optimiseLater(): () => void {
  const knob = v8Defaults[Number(process.versions.v8.split('.')[0])];
  if (knob === undefined) return () => undefined;
  const [flag, value] = knob;
  setFlagsFromString(`${flag}=${value * later}`);
  return () => setFlagsFromString(`${flag}=${value}`);
}
