import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';

/** status --from-file streams a long file of ids: every line printed, in input order, as the look-ups come back
 * 8 at a time; 10,000 ids are some 50 of the reader's chunks (transaction-ids.ts). Memory is the bench's. */
const count = 10_000;
const firstId = 1795289214527958198n;

let close: (() => Promise<void>) | undefined;
afterEach(() => close?.());

describe('status --from-file at scale', () => {
  it(`looks up ${count.toLocaleString('en')} ids, every line in input order`, async () => {
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
    const ids = join(env.HOME!, 'ids.txt');
    writeFileSync(ids, Array.from({ length: count }, (_, i) => `${firstId + BigInt(i)}\n`).join(''));

    const child = spawn(process.execPath, [binPath, 'status', '--from-file', ids, '--concurrency', '8', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
  }, 60_000);
});
