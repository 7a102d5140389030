import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayRefusedError, PaymentOutcomeUnknownError, TransactionPendingError } from '../../src/errors.js';
import { buy, closeBuyServers, gameCoins, payments, sandbox, specServer, startBuy, txnId } from '../helpers/buy-run.js';
import { formsOfType } from '../helpers/spec-server.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// After the Payment went out: settling, interruptions, a refusal, and the --receipt file.
afterEach(closeBuyServers);

describe('buy: after the payment went out', () => {
  it('settles a pending payment with Status until it is final', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1 } });
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/not final yet \(in progress, ResponseStatus 11/);
    expect(run.stdout).toContain('Payment succeeded');
    const statuses = formsOfType(gateway.received, 'Status');
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    for (const status of statuses) expect(status.get('TransactionID')).toBe(txnId);
    expect(payments(gateway.received)).toHaveLength(1);
  });

  it('Ctrl+C while following: exit 3 with the TransactionID and how to look it up', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1000 } });
    const run = startBuy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }]);
    await vi.waitFor(() => expect(formsOfType(gateway.received, 'Status').length).toBeGreaterThanOrEqual(1));
    run.abort();
    const { error, stdout } = await run.done;
    expect(error).toBeInstanceOf(TransactionPendingError);
    expect((error as TransactionPendingError).exitCode).toBe(3);
    expect((error as TransactionPendingError).message).toContain(txnId);
    expect((error as TransactionPendingError).hint).toBe(`look it up with: agentpay status ${txnId}`);
    expect(stdout).toContain('Payment is in progress');
    expect(payments(gateway.received)).toHaveLength(1);
  });

  it('Ctrl+C while the Payment is out: outcome unknown, exit 3, never "nothing happened"', async () => {
    const server = await specServer({ hold: ['Payment'] });
    const run = startBuy(server.baseUrl, { service: '201', account: 'player-42', currency: 'KZT', amount: '10.00' }, [
      { confirm: true },
    ]);
    await vi.waitFor(() => expect(payments(server.received)).toHaveLength(1));
    run.abort();
    const { error } = await run.done;
    expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
    expect((error as PaymentOutcomeUnknownError).exitCode).toBe(3);
    expect((error as PaymentOutcomeUnknownError).transactionId).toBe(txnId);
    expect((error as PaymentOutcomeUnknownError).hint).toContain(`agentpay status ${txnId}`);
  });

  it('a refused payment shows its receipt and ends with exit 1', async () => {
    // The sandbox refuses a static amount that is not the service's fixed denomination.
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1499.99' },
      [{ confirm: true }],
    );
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(run.stdout).toContain('Payment failed');
    expect(run.stdout).toMatch(/ResponseStatus 23/);
  });
});

describe('buy --receipt <file>', () => {
  const receiptPath = () => join(mkdtempSync(join(tmpdir(), 'agentpay-receipt-')), 'receipt.txt');

  it("writes the receipt, plain, with the voucher's name as the ledger recorded it", async () => {
    const gateway = await sandbox();
    const file = receiptPath();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }], {
      receiptFile: file,
    });
    expect(run.error).toBeUndefined();
    const receipt = readFileSync(file, 'utf8');
    expect(receipt).toMatch(/^✓ Payment succeeded\n/);
    expect(receipt).toMatch(new RegExp(`TransactionID\\s+${txnId}\n`));
    expect(receipt).toMatch(/Voucher\s+550 GameCoins\n/);
    expect(receipt).toMatch(/Amount\s+2497\.00 KZT\n/);
    expect(receipt).toMatch(/Time\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2}\n/);
    expect(receipt).not.toMatch(/\u001b\[/);
  });

  it('a pending payment followed until final: the file ends with the final state', async () => {
    const gateway = await sandbox({ behaviour: { pendingPolls: 1 } });
    const file = receiptPath();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }], { receiptFile: file });
    expect(run.error).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toMatch(/^✓ Payment succeeded\n[\s\S]*State\s+success/);
  });

  it('a refused payment: the receipt says failed, and the exit stays 1', async () => {
    const gateway = await sandbox();
    const file = receiptPath();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1499.99' },
      [{ confirm: true }],
      { receiptFile: file },
    );
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(readFileSync(file, 'utf8')).toMatch(/^✗ Payment failed\n[\s\S]*State\s+failed \(ResponseStatus 23\)/);
  });

  it('a file that cannot be written: a warning, and the payment stands', async () => {
    const gateway = await sandbox();
    const file = join(receiptPath(), 'no-such-directory', 'receipt.txt');
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: true }], { receiptFile: file });
    expect(run.error).toBeUndefined();
    expect(run.stdout).toContain('Payment succeeded');
    expect(run.stderr).toContain(`cannot write the receipt to ${file} (ENOENT); the payment stands`);
    expect(payments(gateway.received)).toHaveLength(1);
  });
});
