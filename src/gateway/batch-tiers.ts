import { setFlagsFromString } from 'node:v8';

/*
 * V8's tiers for a run that loads undici: a batch, a bulk run, a proxy. Two flags, set when this
 * module is evaluated, which undici-transport.ts makes happen just before undici loads.
 *
 * --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly. V8 optimises a hot
 * wasm function in the background, and a process cannot exit before such a job is done; the
 * baseline (Liftoff) code parses an answer in microseconds, so the optimising tier is left off
 * (peak memory and CPU in docs/performance.md). It concerns WebAssembly only.
 *
 * --interrupt-budget, three times V8's default (67,584): a function is optimised by TurboFan
 * after three times as much of its bytecode has run. TurboFan compiles on background threads;
 * a run of a few thousand exchanges had it compile ~150 functions (~640 ms of CPU, most of it
 * inlining) beside the main thread, on a machine whose other core also serves the gateway or
 * the next process. With the larger budget fewer, hotter functions are compiled: a 1,000-row
 * bulk run uses ~20% less CPU and ends sooner; long runs still reach optimised code
 * (docs/performance.md, 2026-11-27).
 *
 * Not in main.ts: a changed V8 flag voids the code cache of every script compiled after it,
 * which every run without undici would pay. undici's own bundle (dist/vendor) is compiled after
 * them, so the code cache it learns on first use holds the flags and is accepted by every later
 * run; flags set any later would void that cache each time.
 */
setFlagsFromString('--liftoff-only --interrupt-budget=202752');
