import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines } from './cli.js';
import { sandboxWithEnv } from './gateway-env.js';
import { runInProcess } from './in-process-run.js';
import { intent, outcome } from './journal-lines.js';
import { seedLedger } from './ledger-file.js';

/*
 * For the test/e2e/registry-reconcile-*.test.ts files: a ledger (a SQLite file) made by `pay` runs
 * on the sandbox (in-process: in-process-run.ts), plus records imported to disagree in each way,
 * and registries to hold against it. Days are UTC days (TZ=UTC), the day of the payments.
 */

/** TransactionIDs: paid on the sandbox (p), imported as failed (f), one only in the registry (x). */
export const id = {
  agree: '7300001',
  otherAmount: '7300002',
  notListed: '7300003',
  open: '7300004',
  failedListed: '7300005',
  failedNotListed: '7300006',
  x: '7300009',
};

/** The registry's rows: [id, account, amount]. */
export const listed = (): [string, string, string][] => [
  [id.agree, `reg-${id.agree}`, '1500'],
  [id.otherAmount, `reg-${id.otherAmount}`, '205.50'],
  [id.open, `reg-${id.open}`, '300.00'],
  [id.failedListed, `reg-${id.failedListed}`, '100.00'],
  [id.x, 'reg-x', '42.00'],
];

/** Each finding as list, TransactionID, amounts and states: what the three lists should hold before --settle. */
export const expectedBeforeSettle = () => [
  ['only-in-registry', id.x, '42.00', '', 'paid', ''],
  ['only-in-ledger', id.notListed, '', '700', '', 'success'],
  ['different', id.otherAmount, '205.50', '250.50', 'paid', 'success'],
  ['different', id.failedListed, '100.00', '100.00', 'paid', 'failed'],
  ['different', id.open, '300.00', '300.00', 'paid', 'unknown'],
];

/** Makes the ledger before the file's tests (and closes the sandbox after them); its env, path and day, once made. */
export function registryLedger() {
  let sandbox: RunningSandbox;
  const made = { env: {} as Record<string, string>, ledger: '', day: '' };
  const work = mkdtempSync(join(tmpdir(), 'agentpay-registry-e2e-'));

  beforeAll(async () => {
    let env: Record<string, string>;
    ({ sandbox, env } = await sandboxWithEnv());
    const ledger = join(work, 'ledger.sqlite');
    env = { ...env, AGENTPAY_LEDGER: ledger, TZ: 'UTC' };
    const pay = async (txnId: string, amount: string, payLedger = ledger) => {
      const paid = await runInProcess(
        ['pay', '--service', '201', '--account', `reg-${txnId}`, '--amount', amount, '--txn-id', txnId],
        { ...env, AGENTPAY_LEDGER: payLedger },
      );
      expect(paid.code, paid.stderr).toBe(0);
    };
    await pay(id.agree, '1500.00');
    await pay(id.otherAmount, '250.50');
    await pay(id.notListed, '700');
    // Paid on the sandbox, but with its answer recorded in another ledger: this ledger holds only the intent (open).
    await pay(id.open, '300.00', join(work, 'elsewhere.sqlite'));
    const [first] = jsonLines((await runInProcess(['history', '--json'], env)).stdout);
    const at = String(first?.recordedAt);
    const owner = { gateway: sandbox.baseUrl, agentId: '1001' };
    const failed = (txnId: string) => [
      { ...intent(txnId, at), ...owner, account: `reg-${txnId}`, amount: '100.00' },
      { ...outcome(txnId, 'failed'), ...owner },
    ];
    const open = { ...intent(id.open, at), ...owner, service: '201', account: `reg-${id.open}`, amount: '300.00' };
    await seedLedger(ledger, [...failed(id.failedListed), ...failed(id.failedNotListed), open]);
    Object.assign(made, { env, ledger, day: at.slice(0, 10) });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  return {
    get env() {
      return made.env;
    },
    get ledger() {
      return made.ledger;
    },
    get day() {
      return made.day;
    },
    tsvOf(rows: [string, string, string][], total?: string): string {
      const [year, month, date] = made.day.split('-');
      // Both date forms of the tsv layout.
      const lines = rows.map(
        ([txnId, account, amount], n) =>
          `${txnId}\t${n % 2 ? `${date}.${month}.${year}` : made.day}\t10:00:0${n}\t${account}\t${amount}`,
      );
      return `${[...lines, ...(total ? [total] : [])].join('\n')}\n`;
    },
    registryFile(name: string, content: string | Buffer): string {
      const path = join(work, name);
      writeFileSync(path, content);
      return path;
    },
  };
}
