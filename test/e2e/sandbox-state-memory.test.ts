import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The sandbox on a state file (what `--sandbox` runs, in the client's own process) keeps in
 * memory where each payment's record is, not the record: a paid bulk run's memory stays flat
 * in its rows. Holding every payment as an object it grew by ~350 bytes a payment (a run of
 * 200,000 rows against `--sandbox` peaked near 270 MB). Measured in a process of its own whose
 * heap is collected before each reading (--expose-gc: the test's instrument, not agentpay's),
 * so the figure is what stays, not garbage: payments 5,001 to 10,000 may add under 100 bytes
 * each. The store is the built one (dist/), as the CLI runs it.
 */
const statePath = fileURLToPath(new URL('../../dist/sandbox/state.js', import.meta.url));
const perHalf = 5_000;

const child = `
const { TransactionStore } = await import(process.argv[1]);
const store = new TransactionStore(process.argv[2]);
const pay = (i) => {
  const transactionId = String(4000000000000000 + i);
  store.createOnce('1001', transactionId, (requestId) => ({
    agentId: '1001', transactionId, requestId, service: '202', account: String(7000000000 + i),
    amount: '1500.00', currency: 'KZT', invoiceId: null, status: 10, message: 'Успех',
    exchangeRate: '1', serviceCurrency: 'KZT', createdAt: new Date().toISOString(), pendingPollsLeft: 0,
  }));
};
const held = () => {
  globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const n = Number(process.argv[3]);
for (let i = 0; i < n; i++) pay(i);
const before = held();
for (let i = n; i < 2 * n; i++) pay(i);
const after = held();
const last = store.find('1001', String(4000000000000000 + 2 * n - 1));
const first = store.find('1001', '4000000000000000');
console.log(JSON.stringify({ perPayment: (after - before) / n, size: store.size, first: first?.account, last: last?.account }));
`;

describe('the sandbox state file at scale', () => {
  it(`keeps under 100 bytes a payment in memory (${(2 * perHalf).toLocaleString('en')} payments)`, () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-state-')), 'sandbox-state.jsonl');
    const output = execFileSync(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', child, statePath, path, String(perHalf)],
      { encoding: 'utf8' },
    );
    const measured = JSON.parse(output) as { perPayment: number; size: number; first: string; last: string };
    expect(measured.size).toBe(2 * perHalf);
    expect(measured.first).toBe('7000000000');
    expect(measured.last).toBe(String(7_000_000_000 + 2 * perHalf - 1));
    expect(measured.perPayment).toBeLessThan(100);
  }, 60_000);
});
