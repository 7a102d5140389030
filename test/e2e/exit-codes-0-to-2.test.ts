import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

/** The contract's exit codes when the run ends with an answer or before sending: 0, 1 and 2, through the real bin. */
let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(async () => {
  await sandbox.close();
});

describe('exit 0: success', () => {
  it('check prints the voucher table on stdout, messages on stderr', async () => {
    const result = await runCli(['check', '--service', '101', '--account', '7011234567'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\|\s+4 \|\s+5004 \| 2500 GameCoins/);
    expect(result.stdout).toContain('9990.00');
    expect(result.stdout).not.toContain('vouchers for');
    expect(result.stderr).toContain('4 vouchers for service 101, account 7011234567');
    expect(result.stderr).toContain(
      'Pay one with: agentpay pay --service 101 --account 7011234567 --currency KZT --invoice-id <InvoiceId>',
    );
  });

  it('pay a dynamic voucher: its OrderAmount goes byte for byte, the receipt shows the exact RequestID', async () => {
    const result = await runCli(
      [
        'pay',
        '--service',
        '102',
        '--currency',
        'USD',
        '--account',
        'player-42',
        '--invoice-id',
        '7010',
        '--txn-id',
        '700100',
      ],
      { env },
    );
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
    const paid = await runCli(['--json', 'pay', '--service', '201', '--account', '7011234567', '--amount', '150.50'], {
      env,
    });
    expect(paid.code).toBe(0);
    const [payment] = jsonLines(paid.stdout);
    expect(payment).toMatchObject({
      type: 'Payment',
      status: '10',
      state: 'success',
      amount: '150.50',
      currency: 'KZT',
    });
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
    expect(result.stderr).toMatch(
      /^agentpay: the gateway refused the account check: .*account 0000000000 is refused.* \(ResponseStatus 22\)\n/,
    );
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
    [
      'a missing --service',
      ['pay', '--account', 'a', '--amount', '1'],
      /required option '--service <id>' not specified/,
    ],
    [
      'neither --invoice-id nor --amount',
      ['pay', '--service', '201', '--account', 'a'],
      /give --invoice-id <id> for a dynamic voucher, or --amount/,
    ],
    ['an unknown option', ['check', '--service', '101', '--account', 'a', '--colour'], /unknown option '--colour'/],
    [
      'an unknown command, with a suggestion',
      ['chek', '--service', '101'],
      /unknown command 'chek'\n\(Did you mean check\?\)/,
    ],
    [
      'a txn id that is not a Long',
      ['status', '9223372036854775808'],
      /transaction id "9223372036854775808" is too large/,
    ],
    [
      'a --txn-id with a sign',
      ['pay', '--service', '201', '--account', 'a', '--amount', '1', '--txn-id', '-1'],
      /--txn-id "-1" is not valid: a TransactionID is digits only/,
    ],
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
    const result = await runCli(
      ['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002', '--amount', '2497'],
      { env },
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      '--amount 2497 is not the OrderAmount of invoice 5002, 2497.00; no payment was sent',
    );
    expect(paymentsReceived(sandbox).length).toBe(before);
    expect(sandbox.received.at(-1)?.get('RequestType')).toBe('AccountCheck');
  });

  it('--amount 2497.00 for the same voucher is paid', async () => {
    const result = await runCli(
      ['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002', '--amount', '2497.00'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(paymentsReceived(sandbox).at(-1)?.get('Amount')).toBe('2497.00');
  });

  it('an invoice id not in the voucher list: refused, no Payment sent', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '9999'], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invoice 9999 is not in the voucher list of service 101; no payment was sent');
    expect(result.stderr).toContain('InvoiceIds there: 5001, 5002, 5003, 5004');
    expect(paymentsReceived(sandbox).length).toBe(before);
  });

  it('nothing configured: the gateway, the agent id and the password named in one error, each with how to set it', async () => {
    const check = ['check', '--service', '101', '--account', 'a'];
    const result = await runCli(check, { env: isolatedEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'agentpay: not set: the gateway (--base-url <url> or AGENTPAY_BASE_URL), the agent id (--agent-id <id> or ' +
        'AGENTPAY_AGENT_ID) and the agent password (AGENTPAY_PASSWORD, or --password-file <path>)\n' +
        '  set each as shown, or use a --profile that holds them; or try --sandbox\n',
    );
    const russian = await runCli(['--lang', 'ru', ...check], { env: isolatedEnv({ AGENTPAY_PASSWORD: 'pw-1234' }) });
    expect(russian.code).toBe(2);
    expect(russian.stderr).toContain(
      'agentpay: не заданы: шлюз (--base-url <URL> или AGENTPAY_BASE_URL) и id агента (--agent-id <id> или AGENTPAY_AGENT_ID)\n',
    );
    // One missing keeps its own message.
    const gatewayOnly = await runCli(check, { env: isolatedEnv({ AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: 'pw' }) });
    expect(gatewayOnly.stderr).toContain('agentpay: no gateway is set\n');
  });
});
