#!/usr/bin/env node
// `npm test`: lint and typecheck read only the sources, so they run beside the build and vitest
// rather than before them. A check that fails stops the suite: its output is printed, exit 1.
// Arguments go to vitest (`npm test -- test/e2e/receipt.test.ts`).
import { spawn } from 'node:child_process';

/** A command in a process group of its own (so that it can be stopped whole); its exit code. */
function start(command, args, { quiet }) {
  const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached: true });
  let output = '';
  if (quiet) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
  const ended = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
  return { ended, stop: () => child.exitCode === null && process.kill(-child.pid, 'SIGTERM') };
}

const running = new Set();
const stopAll = () => {
  for (const run of running) run.stop();
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Runs the steps one after another; the first that fails ends the sequence. */
async function sequence(steps, options) {
  for (const [command, args] of steps) {
    const run = start(command, args, options);
    running.add(run);
    const result = await run.ended;
    running.delete(run);
    if (result.code !== 0) return { ...result, step: [command, ...args].join(' ') };
  }
  return { code: 0, output: '' };
}

const checks = [
  sequence([['npm', ['run', '--silent', 'lint']]], { quiet: true }),
  sequence([['npm', ['run', '--silent', 'typecheck']]], { quiet: true }),
];
const suite = sequence(
  [
    ['tsc', ['-p', 'tsconfig.build.json', '--noCheck', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo']],
    ['npm', ['run', '--silent', 'bundle']],
    ['vitest', ['run', ...process.argv.slice(2)]],
  ],
  { quiet: false },
);
let stopped = false;
for (const check of checks) {
  check.then((result) => {
    if (result.code === 0 || stopped) return;
    stopped = true;
    process.stderr.write(`\nnpm test: ${result.step} failed; the suite is stopped\n${result.output}`);
    stopAll();
  });
}
const results = await Promise.all([...checks, suite]);
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
