import { setFlagsFromString } from 'node:v8';

/*
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 optimises a hot wasm function in
 * the background, and a process cannot exit before such a job is done; the baseline (Liftoff)
 * code parses an answer in microseconds, so the optimising tier is left off (peak memory and
 * CPU in docs/performance.md). It concerns WebAssembly only, of which agentpay has no other.
 *
 * Set when this module is evaluated, which undici-transport.ts makes happen just before undici
 * loads, and not in main.ts: a changed V8 flag voids the code cache of every script compiled
 * after it, which every run without undici would pay. undici's own bundle (dist/vendor) is
 * compiled after it, so the code cache it learns on first use holds the flag and is accepted
 * by every later run; the flag set any later would void that cache each time.
 */
setFlagsFromString('--liftoff-only');
