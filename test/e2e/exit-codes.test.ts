import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { answer, closedPortUrl, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

/** The contract's exit codes, one test (or a few) each, through the real bin. */
let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(async () => {
  await sandbox.close();
});

/** Env for a gateway that is not the sandbox. */
const envAt = (baseUrl: string) => isolatedEnv({ AGENTPAY_BASE_URL: baseUrl, AGENTPAY_AGENT_ID: '1001', AGENTPAY_PASSWORD: 'pw' });

describe('exit 0: success', () => {
  it('check prints the voucher table on stdout, messages on stderr', async () => {
    const result = await runCli(['check', '--service', '101', '--account', '7011234567'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\|\s+4 \|\s+5004 \| 2500 GameCoins/);
    expect(result.stdout).toContain('9990.00');
    expect(result.stdout).not.toContain('vouchers for');
    expect(result.stderr).toContain('4 vouchers for service 101, account 7011234567');
    expect(result.stderr).toContain('Pay one with: agentpay pay --service 101 --account 7011234567 --currency KZT --invoice-id <InvoiceId>');
  });

  it('pay a dynamic voucher: its OrderAmount goes byte for byte, the receipt shows the exact RequestID', async () => {
    const result = await runCli(['pay', '--service', '102', '--currency', 'USD', '--account', 'player-42', '--invoice-id', '7010', '--txn-id', '700100'], { env });
    expect(result.code).toBe(0);
    const sent = paymentsReceived(sandbox).find((form) => form.get('TransactionID') === '700100')!;
    expect(sent.get('Amount')).toBe('10.630');
    expect(sent.get('Extra[0].Value')).toBe('7010');
    const stored = sandbox.store.find('1001', '700100')!;
    expect(result.stdout).toContain('✓ Payment succeeded');
    expect(result.stdout).toMatch(new RegExp(`RequestID\\s+${stored.requestId}\\n`));
    expect(result.stdout).toMatch(/Amount\s+10\.630 USD/);
    expect(result.stdout).toMatch(/Exchange rate\s+0\.921 \(credited in EUR\)/);
  });

  it('status of a paid transaction, as a receipt and as JSON', async () => {
    const paid = await runCli(['--json', 'pay', '--service', '201', '--account', '7011234567', '--amount', '150.50'], { env });
    expect(paid.code).toBe(0);
    const [payment] = jsonLines(paid.stdout);
    expect(payment).toMatchObject({ type: 'Payment', status: '10', state: 'success', amount: '150.50', currency: 'KZT' });
    const id = payment!.transactionId as string;
    expect(id).toMatch(/^\d+$/);

    const human = await runCli(['status', id], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('✓ Transaction succeeded');
    expect(human.stdout).toContain(`TransactionID  ${id}`);

    const json = await runCli(['status', id, '--json'], { env });
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([{ ...payment, type: 'Status' }]);
  });
});

describe('exit 1: the gateway answered with a final error', () => {
  it('a refused account at check', async () => {
    const result = await runCli(['check', '--service', '101', '--account', '0000000000'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^agentpay: the gateway refused the account check: .*account 0000000000 is refused.* \(ResponseStatus 22\)\n/);
  });

  it('a refused payment', async () => {
    const result = await runCli(['pay', '--service', '202', '--account', 'a', '--amount', '1500'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ Payment failed');
    expect(result.stderr).toMatch(/ResponseStatus 23/);
  });
});

describe('exit 2: invalid input or usage, nothing sent', () => {
  const usage: [string, string[], RegExp][] = [
    // Amounts: test/e2e/bad-input.test.ts (wiring) and test/unit/hardening.test.ts (every rule).
    ['a missing --service', ['pay', '--account', 'a', '--amount', '1'], /required option '--service <id>' not specified/],
    ['neither --invoice-id nor --amount', ['pay', '--service', '201', '--account', 'a'], /give --invoice-id <id> for a dynamic voucher, or --amount/],
    ['an unknown option', ['check', '--service', '101', '--account', 'a', '--colour'], /unknown option '--colour'/],
    ['an unknown command, with a suggestion', ['chek', '--service', '101'], /unknown command 'chek'\n\(Did you mean check\?\)/],
    ['a txn id that is not a Long', ['status', '9223372036854775808'], /transaction id "9223372036854775808" is too large/],
    ['a --txn-id with a sign', ['pay', '--service', '201', '--account', 'a', '--amount', '1', '--txn-id', '-1'], /--txn-id "-1" is not valid: a TransactionID is digits only/],
    ['no ids for status', ['status'], /give at least one transaction id/],
  ];

  it.each(usage)('%s', async (_name, args, why) => {
    const before = sandbox.received.length;
    const result = await runCli(args, { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(why);
    expect(sandbox.received.length).toBe(before);
  });

  it('--amount 2497 for an OrderAmount of 2497.00: refused, no Payment sent', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002', '--amount', '2497'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--amount 2497 is not the OrderAmount of invoice 5002, 2497.00; no payment was sent');
    expect(paymentsReceived(sandbox).length).toBe(before);
    expect(sandbox.received.at(-1)?.get('RequestType')).toBe('AccountCheck');
  });

  it('--amount 2497.00 for the same voucher is paid', async () => {
    const result = await runCli(['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002', '--amount', '2497.00'], { env });
    expect(result.code).toBe(0);
    expect(paymentsReceived(sandbox).at(-1)?.get('Amount')).toBe('2497.00');
  });

  it('an invoice id not in the voucher list: refused, no Payment sent', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '9999'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invoice 9999 is not in the voucher list of service 101; no payment was sent');
    expect(result.stderr).toContain('InvoiceIds there: 5001, 5002, 5003, 5004');
    expect(paymentsReceived(sandbox).length).toBe(before);
  });

  it('no gateway configured', async () => {
    const result = await runCli(['check', '--service', '101', '--account', 'a'], { env: isolatedEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no gateway is set/);
  });
});

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
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ transactionId: '31337', status: '25', state: 'unknown' })]);
    expect(jsonLines(result.stderr)).toEqual([
      { error: expect.objectContaining({ exitCode: 3, type: 'PaymentOutcomeUnknownError', message: expect.stringContaining('not found at the gateway (ResponseStatus 25') }) },
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
      const result = await runCli(['--json', 'pay', '--service', '201', '--account', 'a', '--amount', '5', '--txn-id', '123456789'], { env });
      expect(result.code).toBe(3);
      expect(jsonLines(result.stdout)).toEqual([
        expect.objectContaining({ transactionId: '123456789', state: 'unknown', status: null, requestId: null, amount: '5', service: '201' }),
      ]);
      const stderrLines = jsonLines(result.stderr);
      expect(stderrLines.at(-1)).toEqual({
        error: expect.objectContaining({ exitCode: 3, type: 'PaymentOutcomeUnknownError', hint: expect.stringContaining('agentpay status 123456789') }),
      });
      expect(stderrLines.slice(0, -1)).toEqual([{ note: expect.stringContaining('was lost') }]);
      expect(result.stdout + result.stderr).not.toMatch(/fail/i);
      expect(fake.received.map((form) => form.get('RequestType'))).toEqual(['Payment', 'Status']);
    } finally {
      await fake.close();
    }
  });

  it('a lost answer in human form says how to look it up', async () => {
    const fake = await startFakeGateway((_form, _request, response) => answer(response, 502, 'Bad Gateway', 'text/plain'));
    try {
      const env = { ...envAt(fake.baseUrl), AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' };
      const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5', '--txn-id', '987'], { env });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain('? Payment outcome is unknown');
      expect(result.stderr).toContain('it may have been made and is kept in the journal; look it up with `agentpay status 987`');
    } finally {
      await fake.close();
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
    expect(result.stderr).toMatch(/^agentpay: cannot reach the gateway at http:\/\/127\.0\.0\.1:\d+\/home\/index: connection refused\n/);
  });

  it('connection refused on pay says no payment was sent', async () => {
    const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5'], { env: envAt(await closedPortUrl()) });
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
    const fake = await startFakeGateway((_form, _request, response) => answer(response, 200, 'Hello, world', 'text/html'));
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
    const fake = await startFakeGateway((_form, _request, response) => answer(response, 200, 'Hello, world', 'text/html'));
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
      const child = spawn(process.execPath, [binPath, 'status', '42'], { env: envAt(fake.baseUrl), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
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
