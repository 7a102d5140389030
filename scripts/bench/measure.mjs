// Running processes for the bench (scripts/bench.mjs): wall time from spawn to exit, floors and
// candidates alternated, medians. Every child is remembered, so that the bench kills what is left.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const children = new Set();

/**
 * Runs a command to its end and measures wall time from spawn to exit. stdout is read from a
 * pipe (as a script reading agentpay's output would), counted and dropped.
 */
export function run(command, args, { env = process.env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let lines = 0;
    let firstLineMs;
    let head = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      if (firstLineMs === undefined) firstLineMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (head.length < 2000) head += chunk.toString('utf8', 0, Math.min(chunk.length, 2000));
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ ms, code, signal, lines, firstLineMs, head, stderr });
    });
  });
}

export const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Alternates the floor and each candidate, runs` times after `warmUp` rounds, and checks
 * every run with `check` (a wrong answer is not a fast one).
 */
export async function compare({ runs, warmUp = 2, floor, candidates, before, check }) {
  const sides = [floor, ...candidates];
  const times = sides.map(() => []);
  for (let round = 0; round < warmUp + runs; round++) {
    const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const index of order) {
      await before?.(sides[index]);
      const result = await run(...sides[index].command);
      const problem = check(sides[index], result);
      if (problem) throw new Error(`${sides[index].label}: ${problem}\n${result.stderr}`);
      if (round >= warmUp) times[index].push(result.ms);
    }
  }
  return times.map(median);
}

/** Peak RSS of one agentpay run, in KiB, with GNU time when there is one. */
export async function peakRss({ node, bin, floors, work }, args, env) {
  const output = join(work, 'time.txt');
  if (existsSync('/usr/bin/time')) {
    const result = await run('/usr/bin/time', ['-f', '%M', '-o', output, node, bin, ...args], {
      env,
      timeoutMs: 600_000,
    });
    return { result, kilobytes: Number(readFileSync(output, 'utf8').trim().split('\n').at(-1)), how: '/usr/bin/time' };
  }
  // Without GNU time: the child reports its own getrusage() peak as it exits.
  const result = await run(node, ['--import', join(floors, 'max-rss.mjs'), bin, ...args], {
    env: { ...env, AGENTPAY_BENCH_RSS_FILE: output },
    timeoutMs: 600_000,
  });
  return { result, kilobytes: Number(readFileSync(output, 'utf8').trim()), how: 'process.resourceUsage().maxRSS' };
}
