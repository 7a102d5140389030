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
 * TurboFan three times later than V8's default. V8 11 (Node 20) counts a function's way there
 * in bytecode run, the interrupt budget (default 67,584); V8 12 and later (Node 22, 24) in calls
 * (default 3,000), and know no --interrupt-budget (V8 would print an error for it on stderr).
 * TurboFan compiles on background threads;
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
const v8Major = Number(process.versions.v8.split('.')[0]);
const laterTurbofan = v8Major < 12 ? '--interrupt-budget=202752' : '--invocation-count-for-turbofan=9000';
setFlagsFromString(`--liftoff-only ${laterTurbofan}`);
