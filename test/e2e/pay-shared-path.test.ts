import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * `pay --invoice-id` goes through the functions `buy` shares with it (checkPurchase,
 * voucherOf, paymentInputOf, executePayment): the split must not change what pay sends.
 */
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function payWith(args: string[], account = '7011234567') {
  const started = await sandboxWithEnv();
  sandbox = started.sandbox;
  const result = await runCli(['pay', '--service', '101', '--account', account, ...args], { env: started.env });
  return { result, payments: paymentsReceived(started.sandbox) };
}

describe('pay --invoice-id after the split', () => {
  it('sends the OrderAmount byte for byte with the InvoiceId', async () => {
    const { result, payments } = await payWith(['--invoice-id', '5002']);
    expect(result.code).toBe(0);
    expect(payments).toHaveLength(1);
    expect(payments[0]?.get('Amount')).toBe('2497.00');
    expect(payments[0]?.get('Extra[0].Value')).toBe('5002');
  });

  it('refuses an --amount that is not the same string, sending nothing', async () => {
    const { result, payments } = await payWith(['--invoice-id', '5002', '--amount', '2497']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not the OrderAmount of invoice 5002, 2497.00; no payment was sent');
    expect(payments).toHaveLength(0);
  });

  it('a refused account check is exit 1 and no Payment', async () => {
    const { result, payments } = await payWith(['--invoice-id', '5002'], '0000000000');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the gateway refused the account check, so no payment was sent');
    expect(payments).toHaveLength(0);
  });
});
