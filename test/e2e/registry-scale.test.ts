import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';

/**
 * reconcile --registry holds a registry of 1,000,000 rows in bounded memory (peak RSS under
 * 200 MB): the rows in a compact index (registry/registry-index.ts), not a string a row. The
 * ledger is empty, so every row is listed "only in the registry", each read back from the index,
 * and the peak is the registry's own; held as strings, the same run peaked near 280 MB.
 */
const rows = 1_000_000;
const firstId = 1795289214527958198n;
const maxRssScript = fileURLToPath(new URL('../../scripts/bench/max-rss.mjs', import.meta.url));

async function writeRegistry(path: string): Promise<void> {
  const stream = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    chunk += `${firstId + BigInt(i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\tсчёт-${i}\t${i % 100}.${String(i % 97).padStart(2, '0')}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  await new Promise<void>((resolve) => stream.end(chunk, () => resolve()));
}

describe('reconcile --registry at scale', () => {
  it(`holds a ${rows.toLocaleString('en')}-row registry in under 200 MB, every row listed back exactly`, async () => {
    const env: Record<string, string> = { ...isolatedEnv(), TZ: 'UTC' };
    const [registry, journal, rssFile] = [join(env.HOME!, 'registry.tsv'), join(env.HOME!, 'journal.jsonl'), join(env.HOME!, 'rss.txt')];
    await writeRegistry(registry);
    writeFileSync(journal, '');
    const child = spawn(process.execPath, ['--import', maxRssScript, binPath, '--sandbox', '--json', 'reconcile', '--registry', registry, '--journal', journal], {
      env: { ...env, AGENTPAY_BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
    expect(code, stderr).toBe(1);
    expect(lines).toBe(rows);
    expect(first).toContain(`"transactionId":"${firstId}","date":"2026-01-01","account":"счёт-0","registryAmount":"0.00"`);
    const lastId = firstId + BigInt(rows - 1);
    expect(last).toContain(`"transactionId":"${lastId}","date":"2026-01-12","account":"счёт-${rows - 1}","registryAmount":"99.${String((rows - 1) % 97).padStart(2, '0')}"`);
    const peakMb = Number(readFileSync(rssFile, 'utf8').trim()) / 1024;
    expect(peakMb).toBeLessThan(200);
  }, 90_000);
});
