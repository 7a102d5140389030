import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maxAnswerBytes } from '../../src/gateway/read-answer.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type GarbageKind, hugeAnswerBytes } from '../../src/sandbox/garbage.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { answerWith, envelopeAnswer, type ScriptedServer, startScriptedServer } from '../helpers/misbehaving-server.js';

/**
 * Broken answers: a 5xx page is "unavailable" (exit 4), a 2xx/4xx answer that is not the
 * envelope is "not understood" (exit 5), a body that never ends is a time-out (exit 4).
 * A Payment answered so is never "failed": its outcome is unknown until Status says (exit 3).
 */
const expected: Record<GarbageKind, { code: 4 | 5; message: string; sample: string }> = {
  html500: { code: 4, message: 'the gateway is unavailable (HTTP 500)', sample: '<!DOCTYPE html>' },
  badjson: {
    code: 5,
    message: "the gateway's answer was not understood: the answer is not JSON",
    sample: '{"TransactinID":',
  },
  shape: {
    code: 5,
    message: "the gateway's answer was not understood: the answer is not the gateway envelope",
    sample: '{"success":true',
  },
  huge: { code: 5, message: `the answer is larger than ${maxAnswerBytes} bytes`, sample: '"Padding":"xxx' },
  slow: { code: 4, message: 'timed out: no complete answer within 800 ms', sample: '{ ' },
};
const kinds = Object.keys(expected) as GarbageKind[];

const firstBytesLine = (stderr: string) =>
  stderr.split('\n').find((line) => line.includes('first bytes of the answer:')) ?? '';

let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
  env = { ...env, AGENTPAY_TIMEOUT: '800', AGENTPAY_SETTLE_DELAY: '20', AGENTPAY_SETTLE_ATTEMPTS: '1' };
});
afterAll(() => sandbox.close());
afterEach(() => {
  sandbox.faults.garbage = undefined;
});

describe('sandbox --garbage, against check and status', () => {
  it('the huge answer is over the client limit', () => {
    expect(hugeAnswerBytes).toBeGreaterThan(maxAnswerBytes);
    expect(maxAnswerBytes).toBe(1024 * 1024);
  });

  it.each(kinds)('check with %s garbage: its exit code and a one-line reason', async (kind) => {
    sandbox.faults.garbage = kind;
    const result = await runCli(['check', '--service', '101', '--account', 'a'], { env });
    expect(result.code).toBe(expected[kind].code);
    expect(result.stdout).toBe('');
    const [message, hint, ...rest] = result.stderr.trimEnd().split('\n');
    expect(message).toContain(expected[kind].message);
    expect(hint).toMatch(/^ {2}\S/);
    expect(rest).toEqual([]);
    expect(result.stderr).not.toContain('first bytes of the answer:');
  });

  it.each(kinds)('status --verbose with %s garbage also shows the first bytes of the body', async (kind) => {
    sandbox.faults.garbage = kind;
    const result = await runCli(['--verbose', 'status', '42'], { env });
    expect(result.code).toBe(expected[kind].code);
    expect(result.stderr).toContain(expected[kind].message);
    const sample = firstBytesLine(result.stderr);
    expect(sample).toContain(JSON.stringify(expected[kind].sample).slice(1, -1));
    // The first bytes, not the whole answer; and no stack: a broken answer is no crash.
    expect(sample.length).toBeLessThan(400);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('pay with a broken answer: unknown, settled by Status, never failed', () => {
  it.each(kinds)('%s: exit 3, state unknown, and the payment it made is in the ledger as unknown', async (kind) => {
    sandbox.faults.garbage = kind;
    const account = `garbage-${kind}`;
    const result = await runCli(['pay', '--service', '201', '--account', account, '--amount', '100.00', '--json'], {
      env,
    });
    expect(result.code).toBe(3);
    const [view] = jsonLines(result.stdout);
    expect(view).toMatchObject({ state: 'unknown', account, amount: '100.00', status: null });
    expect(result.stderr).toContain('asking the gateway with Status');
    expect(result.stderr).toContain(`agentpay status ${view!.transactionId}`);
    // The sandbox did commit it: "failed" would have been a lie.
    const made = sandbox.store.all().filter((t) => t.account === account);
    expect(made).toHaveLength(1);
    expect(made[0]!.status).toBe(10);
    const [payment, settle, ...more] = sandbox.received.filter(
      (form) => form.get('TransactionID') === view!.transactionId,
    );
    expect([payment?.get('RequestType'), settle?.get('RequestType'), more.length]).toEqual(['Payment', 'Status', 0]);
    const journal = (await ledgerRecords(defaultLedger(env))).filter(
      (record) => record.transactionId === view!.transactionId,
    );
    expect(journal.map((record) => record.kind)).toEqual(['intent', 'outcome']);
    expect(journal[1]).toMatchObject({ view: { state: 'unknown' } });
  });

  it('once the gateway answers again, status and reconcile see the payment made', async () => {
    sandbox.faults.garbage = 'badjson';
    // In-process (in-process-run.ts): the bin's pay against badjson is the case above.
    const paid = await runInProcess(
      ['pay', '--service', '201', '--account', 'garbage-then-fine', '--amount', '7.00', '--json'],
      env,
    );
    expect(paid.code).toBe(3);
    sandbox.faults.garbage = undefined;
    const reconciled = await runCli(['reconcile', '--json'], { env });
    expect(jsonLines(reconciled.stdout)).toContainEqual(
      expect.objectContaining({ transactionId: jsonLines(paid.stdout)[0]!.transactionId, state: 'success' }),
    );
  });
});

describe('a misbehaving gateway', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const envFor = (baseUrl: string) =>
    isolatedEnv({
      AGENTPAY_BASE_URL: baseUrl,
      AGENTPAY_AGENT_ID: '7',
      AGENTPAY_PASSWORD: 'pw-for-a-broken-gateway',
      AGENTPAY_TIMEOUT: '800',
      AGENTPAY_SETTLE_DELAY: '20',
      AGENTPAY_SETTLE_ATTEMPTS: '1',
    });

  it.each([
    {
      name: 'an HTML page with 200',
      respond: answerWith(200, 'text/html', '<html><body>Welcome</body></html>'),
      code: 5,
      message: 'not understood: the answer is not JSON',
    },
    {
      name: 'an HTML 404',
      respond: answerWith(404, 'text/html', '<html><body>Not Found</body></html>'),
      code: 5,
      message: 'answered HTTP 404 instead of a protocol answer: the answer is not JSON',
    },
    {
      name: 'a 400 with JSON of another shape',
      respond: answerWith(400, 'application/json', '{"error":"bad request"}'),
      code: 5,
      message: 'not the gateway envelope',
    },
    {
      name: 'an empty 200',
      respond: answerWith(200, 'application/json', ''),
      code: 5,
      message: 'not understood: the answer is not JSON',
    },
    {
      name: 'an envelope about another transaction',
      respond: envelopeAnswer(25, { echoedId: '999' }),
      code: 5,
      message: 'the answer is about transaction 999, not 42',
    },
    {
      name: 'a 503 page',
      respond: answerWith(503, 'text/html', '<h1>Service Unavailable</h1>'),
      code: 4,
      message: 'the gateway is unavailable (HTTP 503)',
    },
    {
      name: 'a 502 from a proxy in front',
      respond: answerWith(502, 'text/plain', 'Bad Gateway'),
      code: 4,
      message: 'the gateway is unavailable (HTTP 502)',
    },
    {
      name: 'no headers, ever',
      respond: () => undefined,
      code: 4,
      message: 'timed out: no complete answer within 800 ms',
    },
  ])('status against $name exits $code', async ({ respond, code, message }) => {
    server = await startScriptedServer(respond);
    const result = await runCli(['status', '42'], { env: envFor(server.baseUrl) });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(server.received.map((form) => form.get('RequestType'))).toEqual(['Status']);
  });

  it('pay answered with a 404 page is unknown (exit 3), never failed', async () => {
    server = await startScriptedServer(answerWith(404, 'text/html', '<html>Not Found</html>'));
    const env = envFor(server.baseUrl);
    const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '1', '--json'], { env });
    expect(result.code).toBe(3);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'unknown' });
    expect(server.received.map((form) => form.get('RequestType'))).toEqual(['Payment', 'Status']);
    const journal = await ledgerRecords(defaultLedger(env));
    expect(journal.at(-1)).toMatchObject({ kind: 'outcome', view: { state: 'unknown' } });
  });

  it('a body that trickles forever is cut at the --timeout deadline (exit 4), by the client', async () => {
    server = await startScriptedServer((_form, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      // Each byte comes well inside any per-chunk idle time-out: only a deadline ends this.
      const timer = setInterval(() => response.write(' '), 20);
      response.on('close', () => clearInterval(timer));
    });
    const result = await runCli(['--verbose', 'status', '42', '--timeout', '600'], { env: envFor(server.baseUrl) });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('timed out: no complete answer within 600 ms');
    expect(firstBytesLine(result.stderr)).toContain('"{ ');
    // The client hung up on an answer still going: the server never finished it.
    expect(server.abandoned).toBe(1);
  });
});

describe('agentpay sandbox --garbage (the command)', () => {
  it('serves garbage to every request until stopped', async () => {
    const home = isolatedEnv();
    const child = spawn(process.execPath, [binPath, 'sandbox', '--port', '0', '--json', '--garbage', 'shape'], {
      env: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const [first] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { baseUrl } = JSON.parse(first) as { baseUrl: string };
      const env = {
        ...home,
        AGENTPAY_BASE_URL: baseUrl,
        AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
        AGENTPAY_PASSWORD: sandboxCredentials.password,
      };
      const result = await runCli(['check', '--service', '101', '--account', 'a'], { env });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('not the gateway envelope');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await closed).toBe(0);
    expect(stderr).toContain('fault: every request is processed, then answered with garbage: shape');
  });
});
