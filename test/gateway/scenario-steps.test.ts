import { PassThrough } from 'node:stream';
import { isLosslessNumber } from 'lossless-json';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../src/commands/context.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import type { ProcessIo } from '../../src/output.js';
import type { GatewaySession } from '../../src/purchase/session.js';
import { refusedAccount } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/server.js';
import type { StepExecutor, StepRun } from '../../src/scenario/step-outcome.js';
import { exchangeRecorder, gatewayStepExecutor } from '../../src/scenario/steps.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';

/** The scenario steps in-process, against the sandbox on a loopback port, with a fresh ledger. */
let sandbox: RunningSandbox | undefined;
let session: GatewaySession | undefined;
afterEach(async () => {
  await session?.close();
  await sandbox?.close();
  session = undefined;
  sandbox = undefined;
});

async function setUp(
  options: SandboxOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<{
  execute: StepExecutor;
  sandbox: RunningSandbox;
  /** What the ledger holds, read as `ledger export` reads it. */
  recorded: () => Promise<JournalRecord[]>;
  stderr: () => string;
}> {
  const started = await sandboxWithEnv(options);
  sandbox = started.sandbox;
  let stderr = '';
  const errors = new PassThrough().setEncoding('utf8');
  errors.on('data', (chunk: string) => (stderr += chunk));
  const io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: errors,
    env: { ...started.env, ...extraEnv },
  } as unknown as ProcessIo;
  const context = await createContext({}, io);
  const recorder = exchangeRecorder();
  session = await context.openGateway({ onExchange: recorder.listen });
  return {
    execute: gatewayStepExecutor({ context, session, recorder, signal: new AbortController().signal }),
    sandbox: started.sandbox,
    recorded: () => ledgerRecords(defaultLedger(started.env)),
    stderr: () => stderr,
  };
}

const step = (kind: StepRun['kind'], options: StepRun['options'], extra: Partial<StepRun> = {}): StepRun => ({
  kind,
  options,
  credentials: undefined,
  replay: undefined,
  ...extra,
});
const dynamic = { service: '101', account: 'player-42', currency: 'KZT' };

describe('scenario steps against the sandbox', () => {
  it('pay by position goes through the ledger; repeat-pay sends the same Payment and the gateway makes one', async () => {
    const { execute, sandbox, recorded } = await setUp();
    const paid = await execute(step('pay', { ...dynamic, invoice: '2' }));
    expect(paid.error).toBeUndefined();
    expect(paid.record).toMatchObject({ state: 'success', amount: '2497.00', requestId: '9007199254740993' });
    expect(paid.record.request).toMatchObject({
      AgentPassword: '***',
      Amount: '2497.00',
      'Extra[0].Name': 'InvoiceId',
      'Extra[0].Value': '5002',
    });
    const envelope = paid.record.envelope as Record<string, unknown>;
    expect(isLosslessNumber(envelope.RequestID) && envelope.RequestID.value).toBe('9007199254740993');

    const again = await execute(step('repeat-pay', { of: 'pay' }, { replay: paid.replay }));
    expect(again.error).toBeUndefined();
    expect(again.record).toMatchObject({
      transactionId: paid.record.transactionId,
      requestId: '9007199254740993',
      state: 'success',
    });
    expect(paymentsReceived(sandbox).map((f) => f.get('TransactionID'))).toEqual([
      paid.record.transactionId,
      paid.record.transactionId,
    ]);
    expect(sandbox.store.all()).toHaveLength(1);
    // Each Payment has its intent on disk first and its outcome after: the ledger's safe retry.
    const records = await recorded();
    expect(records.map((r) => [r.kind, r.transactionId, r.kind === 'intent' ? r.amount : r.view.state])).toEqual([
      ['intent', paid.record.transactionId, '2497.00'],
      ['outcome', paid.record.transactionId, 'success'],
      ['intent', paid.record.transactionId, '2497.00'],
      ['outcome', paid.record.transactionId, 'success'],
    ]);
  });

  it('raw sends an Amount the CLI would refuse, and records it; without raw nothing is sent', async () => {
    const { execute, sandbox, recorded } = await setUp();
    const refusedByUs = await execute(step('pay', { ...dynamic, 'invoice-id': '5001', amount: '499.001' }));
    expect(refusedByUs.error).toMatchObject({ exitCode: 2, message: expect.stringContaining('not the OrderAmount') });
    expect(paymentsReceived(sandbox)).toHaveLength(0);

    const raw = await execute(step('pay', { ...dynamic, 'invoice-id': '5001', amount: '499.001', raw: true }));
    expect(raw.record).toMatchObject({ state: 'failed', status: '23', amount: '499.001' });
    expect(paymentsReceived(sandbox).map((f) => f.get('Amount'))).toEqual(['499.001']);
    expect(sandbox.received.filter((f) => f.get('RequestType') === 'AccountCheck')).toHaveLength(1);
    expect(await recorded()).toEqual([
      expect.objectContaining({
        kind: 'intent',
        transactionId: raw.record.transactionId,
        amount: '499.001',
        invoiceId: '5001',
      }),
      expect.objectContaining({ kind: 'outcome', view: expect.objectContaining({ state: 'failed', status: '23' }) }),
    ]);
  });

  it('other credentials reach the gateway for that step only, and never the ledger or the record', async () => {
    const { execute, sandbox, recorded } = await setUp();
    const wrong = { password: 'conformance-wrong-password' };
    const check = await execute(step('check', dynamic, { credentials: wrong }));
    // A refusal carries no Extras: no voucher list at all (null), not an empty one.
    expect(check.record).toMatchObject({ state: 'failed', status: '20', vouchers: null });
    const pay = await execute(
      step('pay', { ...dynamic, 'invoice-id': '5001', amount: '499.00', raw: true }, { credentials: wrong }),
    );
    expect(pay.record).toMatchObject({ state: 'failed', status: '20' });
    const right = await execute(step('check', dynamic));
    expect(right.record).toMatchObject({ state: 'success' });
    expect(sandbox.received.map((f) => f.get('AgentPassword'))).toEqual([
      wrong.password,
      wrong.password,
      'sandbox-demo-password',
    ]);
    const records = await recorded();
    expect(JSON.stringify([check.record, pay.record, records])).not.toContain(wrong.password);
    expect(records[0]).toMatchObject({ kind: 'intent', agentId: '1001' });
  });

  it("a pay step's refused account check is data for its expectations, as a check step's: no error, no Payment", async () => {
    const { execute, sandbox, recorded } = await setUp();
    const refused = { ...dynamic, account: refusedAccount };
    const paid = await execute(step('pay', { ...refused, invoice: '1' }));
    const checked = await execute(step('check', refused));
    expect(paid.error).toBeUndefined();
    expect(paid.record).toMatchObject({
      state: 'failed',
      status: checked.record.status,
      message: checked.record.message,
    });
    expect(paid.record.request).toMatchObject({ Account: refusedAccount });
    expect(paymentsReceived(sandbox)).toEqual([]);
    expect(await recorded()).toEqual([]);
  });

  it('dry-run resolves the voucher but sends no Payment and records nothing', async () => {
    const { execute, sandbox, recorded } = await setUp();
    const dry = await execute(step('pay', { ...dynamic, invoice: '1', 'dry-run': true }));
    expect(dry.record).toMatchObject({ dryRun: true, form: { Amount: '499.00', AgentPassword: '***' } });
    expect(dry.replay).toBeUndefined();
    expect(paymentsReceived(sandbox)).toHaveLength(0);
    expect(await recorded()).toEqual([]);
  });

  it('status of a fresh TransactionID is data; wait sees a pending payment through', async () => {
    // No look-up while paying: the pay step leaves it in progress for the wait step.
    const { execute } = await setUp({ behaviour: { pendingPolls: 1 } }, { AGENTPAY_SETTLE_ATTEMPTS: '0' });
    const unknown = await execute(step('status', { 'txn-id': 'fresh' }));
    expect(unknown.error).toBeUndefined();
    expect(unknown.record).toMatchObject({ state: 'unknown', status: '25' });
    expect((unknown.record.request as Record<string, string>).TransactionID).toMatch(/^\d{19}$/);

    const paid = await execute(step('pay', { service: '201', account: 'a', amount: '100.00' }));
    expect(paid.record).toMatchObject({ state: 'pending', status: '11' });
    const waited = await execute(step('wait', { 'txn-id': String(paid.record.transactionId), seconds: '20' }));
    expect(waited.record).toMatchObject({ state: 'success', transactionId: paid.record.transactionId });
  });

  it('a step that cannot do its job carries the error and its exit code', async () => {
    const { execute, sandbox: running } = await setUp();
    expect((await execute(step('pay', { ...dynamic, 'invoice-id': '9999' }))).error).toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('not in the voucher list'),
    });
    expect((await execute(step('status', { 'txn-id': '12x' }))).error).toMatchObject({
      exitCode: 2,
      type: 'UsageError',
    });
    await running.close();
    const unreachable = await execute(step('check', dynamic));
    expect(unreachable.error).toMatchObject({ exitCode: 4, type: 'GatewayUnreachableError' });
    expect(unreachable.record).toMatchObject({ error: { exitCode: 4 }, envelope: null });
  });
});
