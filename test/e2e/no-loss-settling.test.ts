// No payment lost when its answer is: settled inside pay, left pending, guarded against
// replay, reconciled later.

import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords, seedLedger } from '../helpers/ledger-file.js';
import { storedTexts } from '../helpers/ledger-text.js';
import { closeSandbox, payDynamic, setUp } from '../helpers/sandbox-per-test.js';

afterEach(closeSandbox);

describe('settling a lost answer inside pay', () => {
  it('a dropped answer settles to success with exactly one payment made', async () => {
    const { sandbox, env } = await setUp({ faults: { dropAfterCommit: 1 } });
    const result = await runCli(payDynamic, { env });
    expect(result.code).toBe(0);
    const [line] = jsonLines(result.stdout);
    expect(line).toMatchObject({ state: 'success', amount: '2497.00', requestId: '9007199254740993' });
    expect(result.stderr).toContain('was lost');
    expect(sandbox.store.all()).toHaveLength(1);
    expect(new Set(paymentsReceived(sandbox).map((f) => f.get('TransactionID')))).toEqual(
      new Set([line!.transactionId]),
    );
    const records = await ledgerRecords(defaultLedger(env));
    expect(records.map((r) => r.kind)).toEqual(['intent', 'outcome']);
    const stored = storedTexts(defaultLedger(env)).map(({ value }) => value);
    expect(stored.filter((text) => text.includes('sandbox-demo-password'))).toEqual([]);
  });

  it('an HTTP 500 after commit settles to success through Status', async () => {
    const { sandbox, env } = await setUp({ faults: { failRate: 1 } });
    const result = await runCli(payDynamic, { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'success' });
    expect(sandbox.store.all()).toHaveLength(1);
  });

  it('exits 3 with the TransactionID when the gateway never answers for sure', async () => {
    const { sandbox, env } = await setUp({ faults: { failRate: 1 } });
    // Status is refused too: make every answer unusable by pointing Status at a dead
    // sandbox after the payment: simplest is no settle attempts at all.
    const result = await runCli([...payDynamic, '--settle-attempts', '0'], { env });
    expect(result.code).toBe(3);
    const [line] = jsonLines(result.stdout);
    expect(line).toMatchObject({ state: 'unknown', status: null });
    expect(result.stderr).toContain(String(line!.transactionId));
    expect(result.stderr).toContain('agentpay reconcile');
    expect(sandbox.store.all()).toHaveLength(1);

    // reconcile then settles it from the ledger.
    const reconcile = await runCli(['reconcile', '--json'], { env });
    expect(reconcile.code).toBe(0);
    expect(jsonLines(reconcile.stdout)).toEqual([
      expect.objectContaining({ transactionId: line!.transactionId, state: 'success' }),
    ]);
    const again = await runCli(['reconcile'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('nothing to reconcile');
  });
});

describe('pending payments', () => {
  it('pay exits 3, then reconcile and status --wait see it through; status records what it saw', async () => {
    const { env } = await setUp({ behaviour: { pendingPolls: 3 } });
    // One look-up while paying: still in progress, so pay leaves it open.
    const paid = await runCli(payDynamic, {
      env: { ...env, AGENTPAY_SETTLE_ATTEMPTS: '1', AGENTPAY_SETTLE_DELAY: '10' },
    });
    expect(paid.code).toBe(3);
    const [line] = jsonLines(paid.stdout);
    expect(line).toMatchObject({ state: 'pending', status: '11' });
    const id = String(line!.transactionId);

    const reconcile = await runCli(['reconcile', '--json'], { env });
    expect(reconcile.code).toBe(3);
    expect(jsonLines(reconcile.stdout)[0]).toMatchObject({ state: 'pending' });

    const waited = await runCli(['status', id, '--wait', '20', '--json'], { env });
    expect(waited.code).toBe(0);
    expect(jsonLines(waited.stdout)[0]).toMatchObject({ transactionId: id, state: 'success' });

    // status recorded the success: nothing is left for reconcile.
    const settled = await runCli(['reconcile', '--json'], { env });
    expect([settled.code, settled.stdout]).toEqual([0, '']);
    const history = await runCli(['history', '--json', '--state', 'success'], { env });
    expect(jsonLines(history.stdout).map((r) => r.transactionId)).toEqual([id]);
  });
});

describe('the replay guard', () => {
  it('refuses a recorded TransactionID reused for another purchase, and retries the same one safely', async () => {
    const { sandbox, env } = await setUp();
    const first = await runCli([...payDynamic, '--txn-id', '777001'], { env });
    expect(first.code).toBe(0);

    const other = await runCli(
      ['pay', '--service', '101', '--account', 'player-42', '--invoice-id', '5001', '--txn-id', '777001'],
      { env },
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('already used');
    expect(other.stderr).toContain('amount 2497.00');
    // The hint leads to the safe retry first, never only to a fresh (second) payment.
    expect(other.stderr).toContain(
      'to retry the earlier purchase safely, repeat it exactly (amount 2497.00, invoiceId 5002)',
    );
    expect(paymentsReceived(sandbox)).toHaveLength(1);

    const retry = await runCli([...payDynamic, '--txn-id', '777001'], { env });
    expect(retry.code).toBe(0);
    expect(jsonLines(retry.stdout)[0]).toMatchObject({ requestId: jsonLines(first.stdout)[0]!.requestId });
    expect(sandbox.store.all()).toHaveLength(1);
  });
});

describe('reconcile', () => {
  it('exits 4 when the gateway is unreachable, and leaves the entries open', async () => {
    const { env } = await setUp({ faults: { failRate: 1 } });
    const paid = await runCli([...payDynamic, '--settle-attempts', '0'], { env });
    expect(paid.code).toBe(3);
    await closeSandbox();
    const reconcile = await runCli(['reconcile'], { env: { ...env, AGENTPAY_TIMEOUT: '2000' } });
    expect(reconcile.code).toBe(4);
  });

  it('declares a payment the gateway never saw "never made" only after the grace period', async () => {
    const { sandbox, env } = await setUp();
    // An intent on record whose Payment never left (the process died first).
    await seedLedger(defaultLedger(env), [
      {
        kind: 'intent',
        transactionId: '555',
        gateway: sandbox.baseUrl,
        agentId: '1001',
        service: '201',
        account: 'a',
        amount: '10',
        currency: 'KZT',
        invoiceId: null,
        at: new Date().toISOString(),
      },
    ]);
    const young = await runCli(['reconcile', '--json'], { env });
    expect(young.code).toBe(3);
    expect(jsonLines(young.stdout)[0]).toMatchObject({ state: 'unknown' });
    const old = await runCli(['reconcile', '--json', '--grace', '0'], { env });
    expect(old.code).toBe(0);
    expect(jsonLines(old.stdout)[0]).toMatchObject({ state: 'failed', status: '25' });
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });

  it('a status of a payment the gateway does not know leaves it open: only reconcile, by its --grace, says never made', async () => {
    const { sandbox, env } = await setUp();
    // A payment an hour old whose answer was lost: a slow gateway may show it yet (reconcile --grace).
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const intent = { kind: 'intent', transactionId: '556', gateway: sandbox.baseUrl, agentId: '1001' } as const;
    const held = { service: '201', account: 'a', amount: '10', currency: 'KZT', invoiceId: null, at };
    await seedLedger(defaultLedger(env), [{ ...intent, ...held }]);
    expect((await runCli(['status', '556'], { env })).code).not.toBe(0);
    const history = jsonLines((await runCli(['history', '--json'], { env })).stdout);
    expect(history.map((line) => [line.transactionId, line.state])).toEqual([['556', 'unknown']]);
    const waited = await runCli(['reconcile', '--json', '--grace', '7200'], { env });
    expect(jsonLines(waited.stdout)[0]).toMatchObject({ state: 'unknown' });
    const closed = await runCli(['reconcile', '--json', '--grace', '60'], { env });
    expect(jsonLines(closed.stdout)[0]).toMatchObject({ state: 'failed', status: '25' });
  });
});
