import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { answer, closedPortUrl, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

/** The contract's exit codes when the outcome is open or the run is cut short: 3, 4, 5 and 130, through the real bin. */
let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(async () => {
  await sandbox.close();
});

/** Env for a gateway that is not the sandbox. */
const envAt = (baseUrl: string) =>
  isolatedEnv({ AGENTPAY_BASE_URL: baseUrl, AGENTPAY_AGENT_ID: '1001', AGENTPAY_PASSWORD: 'pw' });

describe('exit 3: pending, or a payment whose outcome is unknown', () => {
  it('a pending payment exits 3; status --wait follows it to success', async () => {
    const pending = await sandboxWithEnv({ behaviour: { pendingPolls: 2 } });
    try {
      // One look-up while paying: still in progress, so pay leaves it open.
      const paid = await runCli(['--json', 'pay', '--service', '201', '--account', 'a', '--amount', '5'], {
        env: { ...pending.env, AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' },
      });
      expect(paid.code).toBe(3);
      const [view] = jsonLines(paid.stdout);
      expect(view).toMatchObject({ state: 'pending', status: '11' });
      expect(jsonLines(paid.stderr)).toEqual([
        { note: expect.stringContaining('is not final yet (in progress, ResponseStatus 11') },
        { error: expect.objectContaining({ exitCode: 3, type: 'TransactionPendingError' }) },
      ]);

      const waited = await runCli(['status', '--wait', '30', view!.transactionId as string], { env: pending.env });
      expect(waited.code).toBe(0);
      expect(waited.stdout).toContain('✓ Transaction succeeded');
      const polls = pending.sandbox.received.filter((form) => form.get('RequestType') === 'Status');
      expect(polls.length).toBe(3);
    } finally {
      await pending.sandbox.close();
    }
  });

  it('status of an unknown id: not found at the gateway, not refused', async () => {
    const result = await runCli(['--json', 'status', '31337'], { env });
    expect(result.code).toBe(3);
    expect(jsonLines(result.stdout)).toEqual([
      expect.objectContaining({ transactionId: '31337', status: '25', state: 'unknown' }),
    ]);
    expect(jsonLines(result.stderr)).toEqual([
      {
        error: expect.objectContaining({
          exitCode: 3,
          type: 'PaymentOutcomeUnknownError',
          message: expect.stringContaining('not found at the gateway (ResponseStatus 25'),
        }),
      },
    ]);
    const human = await runCli(['status', '31337'], { env });
    expect(human.stderr).toMatch(/not found at the gateway/);
    expect(human.stderr).not.toMatch(/refused/);
  });

  it('a payment whose answer is lost and cannot be settled: state unknown, never failed', async () => {
    // Every answer is lost: the Payment's and the one Status look-up settling allows.
    const fake = await startFakeGateway((_form, request) => request.socket.destroy());
    try {
      const env = { ...envAt(fake.baseUrl), AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' };
      const result = await runCli(
        ['--json', 'pay', '--service', '201', '--account', 'a', '--amount', '5', '--txn-id', '123456789'],
        { env },
      );
      expect(result.code).toBe(3);
      expect(jsonLines(result.stdout)).toEqual([
        expect.objectContaining({
          transactionId: '123456789',
          state: 'unknown',
          status: null,
          requestId: null,
          amount: '5',
          service: '201',
        }),
      ]);
      const stderrLines = jsonLines(result.stderr);
      expect(stderrLines.at(-1)).toEqual({
        error: expect.objectContaining({
          exitCode: 3,
          type: 'PaymentOutcomeUnknownError',
          hint: expect.stringContaining('agentpay status 123456789'),
        }),
      });
      expect(stderrLines.slice(0, -1)).toEqual([{ note: expect.stringContaining('was lost') }]);
      expect(result.stdout + result.stderr).not.toMatch(/fail/i);
      expect(fake.received.map((form) => form.get('RequestType'))).toEqual(['Payment', 'Status']);
    } finally {
      await fake.close();
    }
  });

  it('a lost answer in human form says how to look it up', async () => {
    const fake = await startFakeGateway((_form, _request, response) =>
      answer(response, 502, 'Bad Gateway', 'text/plain'),
    );
    try {
      const env = { ...envAt(fake.baseUrl), AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' };
      const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5', '--txn-id', '987'], {
        env,
      });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain('? Payment outcome is unknown');
      expect(result.stderr).toContain(
        'it may have been made and is kept in the ledger; look it up with `agentpay status 987`',
      );
      // The retry is named whole, as it is typed: this purchase under its TransactionID.
      expect(result.stderr).toContain(
        'to try again without paying twice: ' +
          '`agentpay pay --service 201 --account a --currency KZT --amount 5 --txn-id 987`',
      );
    } finally {
      await fake.close();
    }
  });

  it("the retry it names shows a proxy's password as ***, never as typed (a hint reaches logs)", async () => {
    const fake = await startFakeGateway((_form, _request, response) =>
      answer(response, 502, 'Bad Gateway', 'text/plain'),
    );
    const proxy = await startForwardProxy();
    try {
      const env = { ...envAt(fake.baseUrl), AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' };
      const proxyUrl = proxy.url.replace('http://', 'http://desk:Pr0xyS3cret@');
      const pay = [
        '--proxy',
        proxyUrl,
        'pay',
        '--service',
        '201',
        '--account',
        'a',
        '--amount',
        '5',
        '--txn-id',
        '988',
      ];
      const result = await runCli(pay, { env });
      expect(result.code).toBe(3);
      expect(proxy.forwarded.length).toBeGreaterThan(0);
      expect(result.stderr).toContain(`\`agentpay --proxy ${proxyUrl.replace('Pr0xyS3cret', '***')} pay --service 201`);
      expect(result.stderr).toContain('(type your password back where it shows ***)');
      expect(result.stdout + result.stderr).not.toContain('Pr0xyS3cret');
    } finally {
      await Promise.all([fake.close(), proxy.close()]);
    }
  });
});

describe('exit 4: the gateway could not be reached', () => {
  it.each([
    ['check', ['check', '--service', '101', '--account', 'a']],
    ['status', ['status', '42']],
  ])('connection refused on %s', async (_name, args) => {
    const result = await runCli(args, { env: envAt(await closedPortUrl()) });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^agentpay: cannot reach the gateway at http:\/\/127\.0\.0\.1:\d+\/home\/index: connection refused\n/,
    );
  });

  it('connection refused on pay says no payment was sent', async () => {
    const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5'], {
      env: envAt(await closedPortUrl()),
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('no payment was sent');
  });

  it('a status that times out (--timeout 300)', async () => {
    const fake = await startFakeGateway(() => undefined);
    try {
      const result = await runCli(['--timeout', '300', 'status', '42'], { env: envAt(fake.baseUrl) });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('no complete answer within 300 ms');
    } finally {
      await fake.close();
    }
  });
});

describe('exit 5: the answer could not be understood', () => {
  it('a garbage answer on check', async () => {
    const fake = await startFakeGateway((_form, _request, response) =>
      answer(response, 200, 'Hello, world', 'text/html'),
    );
    try {
      const result = await runCli(['check', '--service', '101', '--account', 'a'], { env: envAt(fake.baseUrl) });
      expect(result.code).toBe(5);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^agentpay: the gateway's answer was not understood: the answer is not JSON/);
      expect(result.stderr).toContain('run with --verbose to see the first bytes of the answer');
    } finally {
      await fake.close();
    }
  });

  it('with --verbose the first bytes of the answer are shown', async () => {
    const fake = await startFakeGateway((_form, _request, response) =>
      answer(response, 200, 'Hello, world', 'text/html'),
    );
    try {
      const result = await runCli(['-v', 'status', '42'], { env: envAt(fake.baseUrl) });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('first bytes of the answer: "Hello, world"');
    } finally {
      await fake.close();
    }
  });
});

describe('130: interrupted', () => {
  it('Ctrl+C during a request ends the run at once (a shell sees 130)', async () => {
    let fake: FakeGateway | undefined;
    fake = await startFakeGateway(() => undefined);
    try {
      const child = spawn(process.execPath, [binPath, 'status', '42'], {
        env: envAt(fake.baseUrl),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      for (let i = 0; i < 400 && fake.received.length === 0; i++) await sleep(25);
      expect(fake.received).toHaveLength(1);
      child.kill('SIGINT');
      const { code, signal } = await exited;
      expect(code === 130 || signal === 'SIGINT').toBe(true);
      expect(stdout).toBe('');
    } finally {
      await fake?.close();
    }
  });
});
