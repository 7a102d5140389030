import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';

/**
 * pay --from-file holds a file of 300,000 rows in bounded memory (peak RSS under 200 MB) through
 * every check made before a Payment: cells, keys twice, the same purchase twice, the desk's
 * look-back and limits, the plan row by row. The rows are packed (order-store.ts) and their
 * state kept in typed arrays (bulk-rows.ts); with an object and strings a row the same run
 * peaked near 480 MB (it peaks near 160 MB now). 1,000,000 rows stay under 200 MB too.
 */
const rows = 300_000;
const maxRssScript = fileURLToPath(new URL('../../scripts/bench/max-rss.mjs', import.meta.url));

async function writeOrders(path: string): Promise<void> {
  const stream = createWriteStream(path);
  let chunk = 'key,service,account,amount\n';
  for (let i = 0; i < rows; i++) {
    chunk += `order-${i},202,${7_000_000_000 + i},1500.00\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  await new Promise<void>((resolve) => stream.end(chunk, () => resolve()));
}

describe('pay --from-file at scale', () => {
  it(`checks and plans ${rows.toLocaleString('en')} rows (--dry-run) in under 200 MB, every row in file order`, async () => {
    const env = isolatedEnv();
    const [orders, rssFile] = [join(env.HOME!, 'orders.csv'), join(env.HOME!, 'rss.txt')];
    await writeOrders(orders);
    const child = spawn(
      process.execPath,
      ['--import', maxRssScript, binPath, '--sandbox', '--json', 'pay', '--from-file', orders, '--dry-run'],
      {
        env: { ...env, AGENTPAY_BENCH_RSS_FILE: rssFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let lines = 0;
    let [first, last] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      if (first.length < 400) first += chunk.toString().slice(0, 400);
      last = (last + chunk.toString()).slice(-400);
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(lines).toBe(rows);
    expect(first).toMatch(/^\{"dryRun":true,.*"line":2,.*"key":"order-0".*"account":"7000000000"/);
    expect(last).toMatch(
      new RegExp(`"line":${rows + 1},.*"key":"order-${rows - 1}".*"account":"${7_000_000_000 + rows - 1}"`),
    );
    expect(stderr).toContain(`${rows} payments would be sent`);
    const peakMb = Number(readFileSync(rssFile, 'utf8').trim()) / 1024;
    expect(peakMb).toBeLessThan(200);
  }, 60_000);
});
