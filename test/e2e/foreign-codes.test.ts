import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import {
  type ForeignGateway,
  type ForeignPaymentBehaviour,
  foreignCodes,
  startForeignGateway,
} from '../helpers/foreign-gateway.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';

/**
 * A gateway whose codes are not the sandbox's, reached as a new user would: no code settings.
 * Whatever it answers that is not 10, no payment it made is ever reported or recorded as
 * failed, and nothing exits 1; reconcile settles each once the gateway says 10. A payment made only
 * so that status, a retry or reconcile has one to look up, and history reading the ledger back, run
 * in-process (in-process-run.ts): the bin's pay is the cases' own, its history report.test.ts's.
 */
let gateway: ForeignGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const envAt = (baseUrl: string, extra: Record<string, string> = {}) =>
  isolatedEnv({
    AGENTPAY_BASE_URL: baseUrl,
    AGENTPAY_AGENT_ID: '77',
    AGENTPAY_PASSWORD: 'pw',
    AGENTPAY_SETTLE_ATTEMPTS: '2',
    AGENTPAY_SETTLE_DELAY: '10',
    ...extra,
  });
/** The ledger's records, as `ledger export` gives them. */
const recordsOf = async (env: Record<string, string>): Promise<Record<string, unknown>[]> =>
  (await ledgerRecords(defaultLedger(env))).map((record) => ({ ...record }));
const pay = (txnId: string) => [
  'pay',
  '--service',
  '501',
  '--account',
  '87010000001',
  '--amount',
  '2500.00',
  '--txn-id',
  txnId,
];

const cases: [ForeignPaymentBehaviour, string, string][] = [
  ['in-progress', String(foreignCodes.inProgress), 'Платёж в обработке'],
  ['lagging', String(foreignCodes.notFound), 'Транзакция не найдена'],
  ['refused', String(foreignCodes.refused), 'Ошибка: отказ провайдера'],
];

describe('a gateway with its own codes and no code settings', () => {
  it.each(cases)(
    '%s: pay exits 3, never "failed"; the ledger keeps it open; reconcile settles it once the gateway says 10',
    async (behaviour, code, message) => {
      gateway = await startForeignGateway(behaviour);
      const env = envAt(gateway.baseUrl);

      const human = await runCli(pay('424242001'), { env });
      expect(human.code).toBe(3);
      expect(human.stdout).not.toMatch(/failed/i);
      expect(human.stderr).not.toMatch(/payment failed|refused|✗/i);
      expect(human.stdout).toContain('Payment outcome is unknown');
      // The gateway's code and Message, exactly, and the setting that classifies the code.
      expect(human.stderr).toContain(`ResponseStatus ${code} ${JSON.stringify(message)}`);
      expect(human.stderr).toContain(`--failed-codes ${code}`);
      expect(human.stderr).toContain(`--pending-codes ${code}`);
      // Settled with Status as a lost answer is: the same TransactionID, never a new one.
      const statuses = gateway.received.filter((form) => form.get('RequestType') === 'Status');
      expect(statuses).toHaveLength(2);
      expect(new Set(gateway.received.map((form) => form.get('TransactionID')))).toEqual(new Set(['424242001']));
      expect(gateway.received.filter((form) => form.get('RequestType') === 'Payment')).toHaveLength(1);

      const journal = await recordsOf(env);
      expect(journal.map((record) => record.kind)).toEqual(['intent', 'outcome']);
      expect((journal[1]!.view as { state: string }).state).toBe('unknown');

      // Still open at the gateway: reconcile leaves it open and names the setting to add.
      const early = await runCli(['reconcile', '--grace', '0'], { env });
      expect(early.code).toBe(3);
      expect(early.stdout).toContain('unknown');
      expect(early.stdout).not.toContain('failed');
      expect(early.stderr).toMatch(
        new RegExp(`1 transaction left open on ResponseStatus ${code}: .*--failed-codes ${code}`),
      );

      gateway.complete('424242001');
      const settled = await runCli(['--json', 'reconcile'], { env });
      expect(settled.code).toBe(0);
      expect(jsonLines(settled.stdout)).toEqual([
        expect.objectContaining({ transactionId: '424242001', state: 'success', status: '10' }),
      ]);
      const history = await runInProcess(['--json', 'history'], env);
      expect(jsonLines(history.stdout)).toEqual([
        expect.objectContaining({ transactionId: '424242001', state: 'success' }),
      ]);
      expect(
        (await recordsOf(env)).some((record) => (record.view as { state?: string } | undefined)?.state === 'failed'),
      ).toBe(false);
    },
  );

  it("--json: the transaction is unknown with the gateway's code, the error exit 3", async () => {
    gateway = await startForeignGateway('refused');
    const result = await runCli(['--json', ...pay('424242002')], { env: envAt(gateway.baseUrl) });
    expect(result.code).toBe(3);
    expect(jsonLines(result.stdout)).toEqual([
      expect.objectContaining({ state: 'unknown', status: '115', message: 'Ошибка: отказ провайдера' }),
    ]);
    const errors = jsonLines(result.stderr).filter((line) => 'error' in line);
    expect(errors).toEqual([
      {
        error: expect.objectContaining({
          exitCode: 3,
          type: 'PaymentOutcomeUnknownError',
          hint: expect.stringContaining('--failed-codes 115 (a final refusal)'),
        }),
      },
    ]);
  });

  it('a payment the gateway completes while pay is settling it succeeds in the same run', async () => {
    gateway = await startForeignGateway('in-progress');
    const env = envAt(gateway.baseUrl, { AGENTPAY_SETTLE_ATTEMPTS: '20', AGENTPAY_SETTLE_DELAY: '20' });
    const running = runCli(pay('424242003'), { env });
    const started = Date.now();
    while (!gateway.received.some((form) => form.get('RequestType') === 'Status') && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 10));
    gateway.complete('424242003');
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ Payment succeeded');
  });

  it('status of an unclassified code says the code is not classified, exit 3', async () => {
    gateway = await startForeignGateway('refused');
    const env = envAt(gateway.baseUrl, { AGENTPAY_SETTLE_ATTEMPTS: '0' });
    await runInProcess(pay('424242004'), env);
    const result = await runCli(['status', '424242004'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('a code not classified for this gateway');
    expect(result.stderr).not.toMatch(/refused/);
  });
});

describe('a retry that cannot reach the gateway', () => {
  it('leaves the earlier attempt open: never closed as "not sent" over a payment that may have been made', async () => {
    gateway = await startForeignGateway('refused');
    const env = envAt(gateway.baseUrl, { AGENTPAY_SETTLE_ATTEMPTS: '0' });
    expect((await runInProcess(pay('424242009'), env)).code).toBe(3);
    await gateway.close();
    gateway = undefined;
    const retry = await runCli(pay('424242009'), { env });
    expect(retry.code).toBe(4);
    expect(
      (await recordsOf(env)).some((record) => (record.view as { state?: string } | undefined)?.state === 'failed'),
    ).toBe(false);
    const history = await runInProcess(['--json', 'history'], env);
    expect(jsonLines(history.stdout)).toEqual([
      expect.objectContaining({ transactionId: '424242009', state: 'unknown' }),
    ]);
  });
});

describe('the same gateway once its code table is configured', () => {
  it('a failedCodes answer is final: failed, exit 1, closed in the ledger', async () => {
    gateway = await startForeignGateway('refused');
    const env = envAt(gateway.baseUrl, { AGENTPAY_FAILED_CODES: '115' });
    const result = await runCli(pay('424242005'), { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ Payment failed');
    expect(gateway.received.filter((form) => form.get('RequestType') === 'Status')).toHaveLength(0);
    expect(((await recordsOf(env))[1]!.view as { state: string }).state).toBe('failed');
    const reconcile = await runCli(['reconcile'], { env });
    expect(reconcile.code).toBe(0);
    expect(reconcile.stderr).toContain('nothing to reconcile');
  });

  it('an in-progress code in pendingCodes is pending, exit 3, with the hint to follow it', async () => {
    gateway = await startForeignGateway('in-progress');
    const result = await runCli(['--pending-codes', '0', ...pay('424242006')], { env: envAt(gateway.baseUrl) });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Payment is in progress');
    expect(result.stderr).toContain('agentpay status --wait 120 424242006');
  });

  it('a not-found answer after a lost one sends the same Payment again, once; a payment the gateway answered for is never closed as never made', async () => {
    gateway = await startForeignGateway('lagging');
    const env = envAt(gateway.baseUrl, { AGENTPAY_NOT_FOUND_CODES: '2', AGENTPAY_SETTLE_ATTEMPTS: '3' });
    const result = await runCli(pay('424242007'), { env });
    expect(result.code).toBe(3);
    const types = gateway.received.map((form) => form.get('RequestType'));
    // Payment (lost), Status (not found), Payment again (same id: the gateway has it, in progress),
    // then Status twice, still "not found" (it lags): never a third Payment.
    expect(types).toEqual(['Payment', 'Status', 'Payment', 'Status', 'Status']);
    expect(new Set(gateway.received.map((form) => form.get('TransactionID')))).toEqual(new Set(['424242007']));
    // What stands is the gateway's answer to the Payment, not the later "not found".
    expect(result.stdout).toMatch(/Message\s+Платёж в обработке/);

    const past = await runCli(['reconcile', '--grace', '0'], { env });
    expect(past.code).toBe(3);
    expect(past.stdout).toContain('not found at the gateway now, though it answered ResponseStatus 0');
    expect(past.stdout).not.toContain('never made');
  });

  it('reconcile closes a payment the gateway never answered for as never made, only after --grace', async () => {
    gateway = await startForeignGateway('lagging');
    // Every look-up while paying is lost too, so nothing but the intent and a lost answer is recorded.
    const env = envAt(gateway.baseUrl, { AGENTPAY_NOT_FOUND_CODES: '2', AGENTPAY_SETTLE_ATTEMPTS: '0' });
    expect((await runInProcess(pay('424242008'), env)).code).toBe(3);
    const young = await runCli(['reconcile'], { env });
    expect(young.code).toBe(3);
    expect(young.stdout).toContain('not found at the gateway yet');
    const past = await runCli(['reconcile', '--grace', '0'], { env });
    expect(past.code).toBe(0);
    expect(past.stdout).toContain('never made');
  });
});
