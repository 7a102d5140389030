import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binPath } from './cli.js';

const maxRssScript = fileURLToPath(new URL('../../scripts/bench/max-rss.mjs', import.meta.url));

/**
 * Runs agentpay with its peak RSS recorded (scripts/bench/max-rss.mjs): the lines of stdout are
 * counted and its first and last 400 characters kept, not the whole of it unless `wholeStdout`
 * (then `stdout` holds it). `readerWaitsMs`: stdout is not read for that long at first, as a
 * slow reader would.
 */
export async function measuredRun(
  env: Record<string, string>,
  args: string[],
  { readerWaitsMs = 0, wholeStdout = false } = {},
) {
  const rssFile = join(env.HOME!, 'rss.txt');
  const child = spawn(process.execPath, ['--import', maxRssScript, binPath, ...args], {
    env: { ...env, AGENTPAY_BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (readerWaitsMs > 0) {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), readerWaitsMs);
  }
  let lines = 0;
  let [first, last, stdout] = ['', '', ''];
  child.stdout.on('data', (chunk: Buffer) => {
    if (wholeStdout) stdout += chunk;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (first.length < 400) first += chunk.toString().slice(0, 400);
    last = (last + chunk.toString()).slice(-400);
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  return {
    code,
    lines,
    first,
    last,
    stdout,
    stderr,
    peakMb: () => Number(readFileSync(rssFile, 'utf8').trim()) / 1024,
  };
}
