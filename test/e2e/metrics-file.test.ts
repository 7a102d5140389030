import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeBulkSandbox, folder, ordersFile, setUp } from '../helpers/bulk-orders.js';
import { binPath, isolatedEnv, runCli } from '../helpers/cli.js';
import { startFakeGateway } from '../helpers/fake-gateway.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, seedLedger } from '../helpers/ledger-file.js';
import { readMetrics } from '../helpers/metrics-file.js';
import { listed, registryLedger } from '../helpers/registry-ledger.js';

// --metrics-file through the bin (docs/metrics.md): each file parsed by a real Prometheus text
// parser, its values checked after a bulk run, a reconcile, a report and a registry comparison,
// and a failed run seen to keep the last success while it moves the last run.
afterEach(closeBulkSandbox);

const payDynamic = ['pay', '--service', '101', '--account', 'm-1', '--invoice-id', '5002'];

describe('pay --from-file --metrics-file', () => {
  it('counts the rows by state after a run with a refused row; a file refused whole then keeps the last success', async () => {
    const { sandbox, env } = await setUp();
    const metrics = join(folder(), 'agentpay-bulk.prom');
    const orders = ordersFile(['service,account,amount', '201,e-1,100.00', '202,e-2,999.00']);
    const run = await runCli(['pay', '--from-file', orders, '--yes', '--metrics-file', metrics], { env });
    expect(run.code, run.stderr).toBe(1);
    const first = readMetrics(metrics, 'pay_from_file');
    expect(first.get('agentpay_bulk_rows{state=success}')).toBe(1);
    expect(first.get('agentpay_bulk_rows{state=failed}')).toBe(1);
    for (const state of ['pending', 'unknown', 'not_sent', 'skipped', 'not_started', 'refused'])
      expect(first.get(`agentpay_bulk_rows{state=${state}}`), state).toBe(0);
    expect(first.get('agentpay_open_payments{state=unknown}')).toBe(0);
    expect(first.get('agentpay_last_exit_code')).toBe(1);
    // Exit 1 ran the job to its end: a person looks at the refused row, the monitor sees a success.
    expect(first.get('agentpay_last_success_timestamp_seconds')).toBe(first.get('agentpay_last_run_timestamp_seconds'));
    expect(first.get('agentpay_job_duration_seconds')).toBeGreaterThanOrEqual(0);

    const bad = ordersFile(['service,account,amount', '201,e-3,100.00', '201,e-4,1.5.0']);
    const refused = await runCli(['pay', '--from-file', bad, '--yes', '--metrics-file', metrics], { env });
    expect(refused.code).toBe(2);
    expect(paymentsReceived(sandbox)).toHaveLength(2);
    const second = readMetrics(metrics, 'pay_from_file');
    expect(second.get('agentpay_last_exit_code')).toBe(2);
    expect(second.get('agentpay_bulk_rows{state=refused}')).toBe(1);
    expect(second.get('agentpay_bulk_rows{state=success}')).toBe(0);
    expect(second.get('agentpay_last_success_timestamp_seconds')).toBe(
      first.get('agentpay_last_success_timestamp_seconds'),
    );
    expect(second.get('agentpay_last_run_timestamp_seconds')).toBeGreaterThan(
      first.get('agentpay_last_run_timestamp_seconds')!,
    );
    // Written whole: no temporary file left beside it.
    expect(readdirSync(dirname(metrics))).toEqual(['agentpay-bulk.prom']);
  });

  it('a dry run writes no file; --metrics-file without --from-file is refused', async () => {
    const { env } = await setUp();
    const metrics = join(folder(), 'dry.prom');
    const orders = ordersFile(['service,account,amount', '201,d-1,100.00']);
    const dry = await runCli(['pay', '--from-file', orders, '--dry-run', '--metrics-file', metrics], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(metrics)).toBe(false);
    const single = await runCli([...payDynamic, '--metrics-file', metrics], { env });
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('--metrics-file goes with --from-file');
  });
});

describe('reconcile --metrics-file', () => {
  it('counts the payment left pending under the job named by --metrics-job; unreachable, it keeps the last success', async () => {
    const { sandbox, env } = await setUp({ behaviour: { pendingPolls: 50 } });
    // Set-up in-process (in-process-run.ts): a payment left pending for the job to count.
    const paid = await runInProcess(payDynamic, { ...env, AGENTPAY_SETTLE_ATTEMPTS: '1' });
    expect(paid.code).toBe(3);
    const metrics = join(folder(), 'agentpay-reconcile.prom');
    const options = ['--metrics-file', metrics, '--metrics-job', 'reconcile_nightly'];
    const reconciled = await runCli(['reconcile', ...options], { env });
    expect(reconciled.code, reconciled.stderr).toBe(3);
    const first = readMetrics(metrics, 'reconcile_nightly');
    expect(first.get('agentpay_open_payments{state=pending}')).toBe(1);
    expect(first.get('agentpay_open_payments{state=unknown}')).toBe(0);
    expect(first.get('agentpay_last_exit_code')).toBe(3);
    expect(first.get('agentpay_last_success_timestamp_seconds')).toBe(first.get('agentpay_last_run_timestamp_seconds'));

    await sandbox.close();
    const unreachable = await runCli(['reconcile', ...options], { env });
    expect(unreachable.code).toBe(4);
    const second = readMetrics(metrics, 'reconcile_nightly');
    expect(second.get('agentpay_last_exit_code')).toBe(4);
    expect(second.get('agentpay_last_success_timestamp_seconds')).toBe(
      first.get('agentpay_last_success_timestamp_seconds'),
    );
    expect(second.get('agentpay_last_run_timestamp_seconds')).toBeGreaterThan(
      first.get('agentpay_last_run_timestamp_seconds')!,
    );
    // Its Status could not be asked: the payment is still open, its state now unknown.
    expect(second.get('agentpay_open_payments{state=pending}')).toBe(0);
    expect(second.get('agentpay_open_payments{state=unknown}')).toBe(1);
  });

  it('report counts the open payments of its day; a directory that is not there is refused before the job', async () => {
    const { env } = await setUp({ behaviour: { pendingPolls: 50 } });
    // Set-up in-process (in-process-run.ts): a payment left pending for the job to count.
    const paid = await runInProcess(payDynamic, { ...env, AGENTPAY_SETTLE_ATTEMPTS: '1' });
    expect(paid.code).toBe(3);
    const metrics = join(folder(), 'agentpay-report.prom');
    const report = await runCli(['report', '--date', 'today', '--metrics-file', metrics], { env });
    expect(report.code, report.stderr).toBe(0);
    const values = readMetrics(metrics, 'report');
    expect(values.get('agentpay_open_payments{state=pending}')).toBe(1);
    expect(values.get('agentpay_open_payments{state=unknown}')).toBe(0);

    const missing = join(folder(), 'no-such-directory', 'report.prom');
    const refused = await runCli(['report', '--metrics-file', missing], { env });
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain('cannot write the metrics file');
    expect(refused.stdout).toBe('');
  });
});

describe('reconcile --registry --metrics-file', () => {
  const fixture = registryLedger();

  it('counts each list after a comparison with differences, exit 1 being a success of the job', async () => {
    const registry = fixture.registryFile('metrics.tsv', fixture.tsvOf(listed(), 'Total: 5 2147.50'));
    const metrics = join(folder(), 'agentpay-registry.prom');
    const result = await runCli(['reconcile', '--registry', registry, '--metrics-file', metrics], {
      env: fixture.env,
    });
    expect(result.code, result.stderr).toBe(1);
    const values = readMetrics(metrics, 'reconcile_registry');
    expect(values.get('agentpay_registry_rows{list=only_in_registry}')).toBe(1);
    expect(values.get('agentpay_registry_rows{list=only_in_ledger}')).toBe(1);
    expect(values.get('agentpay_registry_rows{list=different}')).toBe(3);
    expect(values.get('agentpay_registry_rows{list=agreeing}')).toBe(1);
    expect(values.get('agentpay_registry_rows{list=dated_another_day}')).toBe(0);
    expect(values.get('agentpay_last_success_timestamp_seconds')).toBe(
      values.get('agentpay_last_run_timestamp_seconds'),
    );
  });
});

describe('a run stopped by SIGTERM', () => {
  it('still writes its file: the last run and exit 143, no success', async () => {
    // A gateway that holds every answer: reconcile waits on its one Status until the signal.
    const gateway = await startFakeGateway(() => undefined);
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: gateway.baseUrl,
        AGENTPAY_AGENT_ID: '7',
        AGENTPAY_PASSWORD: 'secret',
      });
      const at = new Date(Date.now() - 600_000).toISOString();
      const intent = { kind: 'intent' as const, gateway: gateway.baseUrl, agentId: '7', transactionId: '880000009' };
      const payment = { service: '101', account: 'a-1', amount: '499.00', currency: 'KZT', invoiceId: null, at };
      await seedLedger(defaultLedger(env), [{ ...intent, ...payment }]);
      const metrics = join(folder(), 'agentpay-reconcile.prom');
      const child = spawn(process.execPath, [binPath, 'reconcile', '--metrics-file', metrics], {
        env,
        stdio: 'ignore',
      });
      const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
      await expect.poll(() => gateway.received.length, { timeout: 10_000 }).toBe(1);
      child.kill('SIGTERM');
      expect(await closed).toBe(143);
      const values = readMetrics(metrics, 'reconcile');
      expect(values.get('agentpay_last_exit_code')).toBe(143);
      expect(values.get('agentpay_last_run_timestamp_seconds')).toBeGreaterThan(0);
      expect(values.has('agentpay_last_success_timestamp_seconds')).toBe(false);
    } finally {
      await gateway.close();
    }
  });
});
