// No payment lost when agentpay is interrupted: killed at random points, recording beside
// other processes, stopped by Ctrl+C or SIGTERM. (A ledger it cannot write: local-storage.test.ts.)

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { payKilledAtRandomPoints } from '../helpers/kill-trials.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { closeSandbox, payDynamic, setUp } from '../helpers/sandbox-per-test.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { formsOfType, startSpecServer } from '../helpers/spec-server.js';

afterEach(closeSandbox);

describe('killed at random points', () => {
  it('every payment the sandbox committed is recorded and settled by reconcile; none twice', async () => {
    const { sandbox, env } = await setUp({ faults: { latencyMs: 40 } });
    const pay = (account: string) =>
      spawn(process.execPath, [binPath, 'pay', '--service', '201', '--account', account, '--amount', '100.00'], {
        env,
        stdio: 'ignore',
      });
    await payKilledAtRandomPoints(pay, 8);
    const reconcile = await runCli(['reconcile', '--json', '--grace', '0'], { env });
    expect(reconcile.code).toBe(0);

    const committed = sandbox.store.all();
    const records = await ledgerRecords(defaultLedger(env));
    const intents = new Map(records.filter((r) => r.kind === 'intent').map((r) => [r.transactionId, r]));
    for (const transaction of committed) expect(intents.has(transaction.transactionId)).toBe(true);
    // One purchase (account) never holds two payments.
    const accounts = committed.map((t) => t.account);
    expect(new Set(accounts).size).toBe(accounts.length);
    // After reconcile, every recorded payment has a final state and the committed ones are successes.
    const history = jsonLines((await runCli(['history', '--json'], { env })).stdout);
    expect(history.every((h) => h.state === 'success' || h.state === 'failed')).toBe(true);
    const succeeded = new Set(history.filter((h) => h.state === 'success').map((h) => h.transactionId));
    expect(succeeded).toEqual(new Set(committed.map((t) => t.transactionId)));
  }, 60_000);
});

/**
 * A process that records intents one after another in the SQLite ledger at argv[1] (made by the
 * built ledger, as agentpay makes them), printing each TransactionID once its intent is committed.
 */
const recorderScript = `
  import { SqliteLedger } from ${JSON.stringify(new URL('../../dist/ledger/sqlite/sqlite-ledger.js', import.meta.url).href)};
  const [path, prefix, count, width] = process.argv.slice(1);
  const ledger = await SqliteLedger.open({ kind: 'file', path, shown: path }, { by: { operator: 'o', host: 'h' }, note() {} });
  for (let i = 0; i < Number(count); i++) {
    const transactionId = prefix + i;
    await ledger.recordIntent({ transactionId, gateway: 'g'.repeat(Number(width)), agentId: '1', service: 's', account: 'a', amount: '1', currency: 'KZT', invoiceId: null }, { checkReplay: true });
    process.stdout.write(transactionId + '\\n');
  }
  await ledger.close();
`;

/** Runs the recorder; resolves with how it ended and the TransactionIDs it was told were committed. */
function record(path: string, prefix: string, count: number, width: number, killAfterMs?: number) {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', recorderScript, path, prefix, `${count}`, `${width}`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise<{ code: number | null; committed: string[] }>((resolve) =>
    child.once('close', (code) => resolve({ code, committed: stdout.split('\n').filter((id) => id !== '') })),
  );
}

const intentIds = async (path: string) =>
  (await ledgerRecords(path)).filter((r) => r.kind === 'intent').map((r) => r.transactionId);

describe('the SQLite ledger under concurrent writers', () => {
  it('three processes recording at once: every intent once and whole, the long ones too', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-concurrent-')), 'ledger.sqlite');
    const runs = await Promise.all([
      record(path, '1', 300, 2000),
      record(path, '2', 300, 10),
      record(path, '3', 20, 1_000_000),
    ]);
    expect(runs.map((run) => [run.code, run.committed.length])).toEqual([
      [0, 300],
      [0, 300],
      [0, 20],
    ]);
    const records = await ledgerRecords(path);
    const ids = records.map((r) => r.transactionId);
    expect(new Set(ids).size).toBe(620);
    expect(ids.sort()).toEqual(runs.flatMap((run) => run.committed).sort());
    expect(records.filter((r) => r.transactionId.startsWith('3')).every((r) => r.gateway.length === 1_000_000)).toBe(
      true,
    );
  }, 60_000);

  it('a recorder SIGKILLed mid-write loses nothing it was told was committed, and leaves the ledger readable', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-killed-')), 'ledger.sqlite');
    const seed = Number(process.env.AGENTPAY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
    onTestFailed(() => console.error(`kill trials: AGENTPAY_TEST_SEED=${seed}`));
    const random = seededRandom(seed);
    const committed: string[] = [];
    for (let trial = 0; trial < 6; trial++) {
      const run = await record(path, `${trial}-`, 100_000, 200, 150 + Math.floor(random() * 400));
      expect(run.code).toBe(null);
      committed.push(...run.committed);
    }
    const held = new Set(await intentIds(path));
    expect(committed.filter((id) => !held.has(id))).toEqual([]);
    // Each trial got past its start: the kills fell among the writes.
    expect(committed.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('Ctrl+C while the payment is out', () => {
  it('never pretends it did not happen: exit 3 with the TransactionID, the ledger holds it', async () => {
    const { sandbox, env } = await setUp({ faults: { latencyMs: 2_000 } });
    const child = spawn(process.execPath, [binPath, ...payDynamic], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    const deadline = Date.now() + 10_000;
    while (paymentsReceived(sandbox).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    child.kill('SIGINT');
    expect(await closed).toBe(3);
    const id = paymentsReceived(sandbox)[0]!.get('TransactionID')!;
    expect(jsonLines(stdout)[0]).toMatchObject({ transactionId: id, state: 'unknown' });
    expect(stderr).toContain(`agentpay status ${id}`);
    const records = await ledgerRecords(defaultLedger(env));
    expect(records.filter((r) => r.transactionId === id).map((r) => r.kind)).toEqual(['intent', 'outcome']);
  });
});

describe('SIGTERM while the payment is out (cron, a service manager stopping it)', () => {
  it('ends as Ctrl+C does: exit 3, the TransactionID and how to look it up; the ledger keeps it open', async () => {
    // A gateway that received the Payment and never answers it.
    const server = await startSpecServer({ hold: ['Payment'] });
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: server.baseUrl,
        AGENTPAY_AGENT_ID: '7',
        AGENTPAY_PASSWORD: 'secret',
      });
      const child = spawn(
        process.execPath,
        [binPath, 'pay', '--service', '201', '--account', 'a-1', '--amount', '150.50'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.once('close', (code, signal) => resolve([code, signal])),
      );
      const deadline = Date.now() + 10_000;
      while (formsOfType(server.received, 'Payment').length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const id = formsOfType(server.received, 'Payment')[0]?.get('TransactionID');
      expect(id).toMatch(/^\d+$/);
      child.kill('SIGTERM');
      expect(await closed).toEqual([3, null]);
      expect(stdout).toContain(id);
      expect(stdout).toMatch(/unknown/);
      expect(stdout).not.toMatch(/fail/i);
      expect(stderr).toContain(`the outcome of payment ${id} is unknown: interrupted before the answer arrived`);
      expect(stderr).toContain(`agentpay status ${id}`);
      const records = (await ledgerRecords(defaultLedger(env))).filter((r) => r.transactionId === id);
      expect(records.map((r) => [r.kind, r.kind === 'outcome' ? r.view.state : undefined])).toEqual([
        ['intent', undefined],
        ['outcome', 'unknown'],
      ]);
      // Still open: reconcile would ask about it.
      expect(
        jsonLines((await runCli(['history', '--json', '--state', 'unknown'], { env })).stdout).map(
          (h) => h.transactionId,
        ),
      ).toEqual([id]);
    } finally {
      await server.close();
    }
  });
});
