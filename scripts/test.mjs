#!/usr/bin/env node
// `npm test`: lint and typecheck read only the sources, so they run beside the build and vitest
// rather than before them; the run fails if any of them fails, a failed check's output last.
// Arguments go to vitest (`npm test -- test/e2e/receipt.test.ts`).
import { spawn } from 'node:child_process';

const children = new Set();

/** Runs the steps one after another (`quiet`: their output kept for a failure); the first that fails ends them. */
async function sequence(steps, { quiet }) {
  for (const [command, args] of steps) {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    let output = '';
    if (quiet)
      for (const stream of [child.stdout, child.stderr])
        stream.setEncoding('utf8').on('data', (text) => (output += text));
    const code = await new Promise((resolve) => {
      child.on('error', (error) => {
        output += `${command}: ${error.message}\n`;
        resolve(1);
      });
      child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
    });
    children.delete(child);
    if (code !== 0) return { code, output: quiet ? output : undefined, step: [command, ...args].join(' ') };
  }
  return { code: 0 };
}

// Ctrl+C reaches every child from the terminal, and each ends its own way (vitest removes its files): this
// process waits for them. A SIGTERM or SIGHUP sent to this process alone is passed on to them.
process.on('SIGINT', () => undefined);
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const results = await Promise.all([
  sequence([['npm', ['run', '--silent', 'lint']]], { quiet: true }),
  sequence([['npm', ['run', '--silent', 'typecheck']]], { quiet: true }),
  sequence(
    [
      ['tsc', ['-p', 'tsconfig.build.json', '--noCheck', '--incremental', '--tsBuildInfoFile', 'dist/.tsbuildinfo']],
      ['npm', ['run', '--silent', 'bundle']],
      ['vitest', ['run', ...process.argv.slice(2)]],
    ],
    { quiet: false },
  ),
]);
for (const failed of results.filter((result) => result.output !== undefined))
  process.stderr.write(`\nnpm test: \`${failed.step}\` failed:\n${failed.output}`);
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
