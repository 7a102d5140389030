import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, isolatedEnv, jsonLines } from '../helpers/cli.js';

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('status --from-file streams its lines', () => {
  it('prints the first line while the last look-up is still unanswered', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(1795289214527958198n + BigInt(i)));
    const lastId = ids.at(-1)!;
    const events: string[] = [];
    let heldAnswer: (() => void) | undefined;
    let firstLineSeen: () => void = () => {};
    const firstLine = new Promise<void>((resolve) => (firstLineSeen = resolve));

    // A gateway that answers every Status at once, except the last id's: that answer waits
    // until the test has read agentpay's first line of output.
    const server = createServer((request, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const id = new URLSearchParams(body).get('TransactionID')!;
        const answer = () => {
          if (id === lastId) events.push('last answered');
          response.setHeader('content-type', 'application/json');
          response.end(
            `{"TransactinID":${id},"RequestID":9007199254740993,"ResponseType":"Status","ResponseStatus":10,"Message":"ok"}`,
          );
        };
        if (id !== lastId) return answer();
        events.push('last asked');
        heldAnswer = answer;
        void firstLine.then(answer);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => server.close();
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const file = join(mkdtempSync(join(tmpdir(), 'agentpay-stream-')), 'ids.txt');
    writeFileSync(file, `${ids.join('\n')}\n`);
    const env = isolatedEnv({ AGENTPAY_BASE_URL: baseUrl, AGENTPAY_AGENT_ID: '1', AGENTPAY_PASSWORD: 'pw' });
    const child = spawn(process.execPath, [binPath, 'status', '--from-file', file, '--concurrency', '4', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout === '' && chunk.includes('\n')) {
        events.push('first line printed');
        firstLineSeen();
      }
      stdout += chunk;
    });
    child.stderr.resume();
    // Were the output held back to the end, the held answer would never come: release it
    // when agentpay exits or stalls, so that the test fails instead of hanging.
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const stalled = setTimeout(() => heldAnswer?.(), 15_000);
    expect(await exited).toBe(0);
    clearTimeout(stalled);

    expect(events.indexOf('first line printed')).toBeGreaterThanOrEqual(0);
    expect(events.indexOf('first line printed')).toBeLessThan(events.indexOf('last answered'));
    // Input order, every id once.
    expect(jsonLines(stdout).map((line) => line.transactionId)).toEqual(ids);
  }, 30_000);
});
