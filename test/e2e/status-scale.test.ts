import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';

/**
 * status --from-file keeps its memory flat however long the file: the ids are streamed, the
 * lines printed in order as they come, and nothing made for one look-up outlives it. A Set of
 * the requests in flight, and a listener an exchange on the stop signal, each made the young
 * collections keep every finished look-up alive once one had been promoted: this batch then
 * peaked at 146, 156, 250 and 189 MB on Node 20, 22, 24 and 26; it peaks at 105, 109, 123 and
 * 122 MB now (V8 13 and later size the young generation from the machine's memory).
 */
const count = 30_000;
const firstId = 1795289214527958198n;
const maxRssScript = fileURLToPath(new URL('../../scripts/bench/max-rss.mjs', import.meta.url));

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

describe('status --from-file at scale', () => {
  it(`looks up ${count.toLocaleString('en')} ids in under 140 MB, every line in input order`, async () => {
    // A gateway that answers every Status at once, each about the transaction asked for.
    const server = createServer((request, response) =>
      onForm(request, (form) => {
        response.setHeader('content-type', 'application/json');
        response.end(
          `{"TransactinID":${form.get('TransactionID')},"RequestID":9007199254740993,"ResponseType":"Status",` +
            '"ResponseStatus":10,"Message":"ok"}',
        );
      }),
    );
    const listener = await listenOnLoopback(server);
    close = listener.close;
    const env = isolatedEnv({
      AGENTPAY_BASE_URL: `http://127.0.0.1:${listener.port}`,
      AGENTPAY_AGENT_ID: '1',
      AGENTPAY_PASSWORD: 'pw',
    });
    const [ids, rssFile] = [join(env.HOME!, 'ids.txt'), join(env.HOME!, 'rss.txt')];
    writeFileSync(ids, Array.from({ length: count }, (_, i) => `${firstId + BigInt(i)}\n`).join(''));

    const child = spawn(
      process.execPath,
      ['--import', maxRssScript, binPath, 'status', '--from-file', ids, '--concurrency', '8', '--json'],
      { env: { ...env, AGENTPAY_BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let lines = 0;
    let outOfOrder = 0;
    let rest = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const line of parts) {
        if (!line.startsWith(`{"transactionId":"${firstId + BigInt(lines)}"`)) outOfOrder++;
        lines++;
      }
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    expect(lines).toBe(count);
    expect(outOfOrder).toBe(0);
    expect(stderr).toContain(`${count} looked up: ${count} success`);
    const peakMb = Number(readFileSync(rssFile, 'utf8').trim()) / 1024;
    expect(peakMb).toBeLessThan(140);
  }, 60_000);
});
