// No payment lost when agentpay is interrupted: killed at random points, appending beside
// another process, stopped by Ctrl+C or SIGTERM, or unable to write its journal.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalRecords } from '../../src/ledger/file/record-stream.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { payKilledAtRandomPoints } from '../helpers/kill-trials.js';
import { closeSandbox, journalOf, payDynamic, setUp } from '../helpers/sandbox-per-test.js';
import { formsOfType, startSpecServer } from '../helpers/spec-server.js';

afterEach(closeSandbox);

describe('killed at random points', () => {
  it('every payment the sandbox committed is journaled and settled by reconcile; none twice', async () => {
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
    const journal = jsonLines(readFileSync(journalOf(env), 'utf8'));
    const intents = new Map(journal.filter((r) => r.kind === 'intent').map((r) => [r.transactionId, r]));
    for (const transaction of committed) expect(intents.has(transaction.transactionId)).toBe(true);
    // One purchase (account) never holds two payments.
    const accounts = committed.map((t) => t.account);
    expect(new Set(accounts).size).toBe(accounts.length);
    // After reconcile, every journaled payment has a final state and the committed ones are successes.
    const history = jsonLines((await runCli(['history', '--json'], { env })).stdout);
    expect(history.every((h) => h.state === 'success' || h.state === 'failed')).toBe(true);
    const succeeded = new Set(history.filter((h) => h.state === 'success').map((h) => h.transactionId));
    expect(succeeded).toEqual(new Set(committed.map((t) => t.transactionId)));
  }, 60_000);
});

/** Every record is on a whole line of its own, once, and the journal's reader reads them all without a warning; a blank line may sit between them. */
async function expectEveryRecordOnceAndWhole(path: string, records: number): Promise<void> {
  const lines = readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '');
  expect(lines).toHaveLength(records);
  const ids = lines.map((line) => (JSON.parse(line) as { transactionId: string }).transactionId);
  expect(new Set(ids).size).toBe(records);
  const warnings: string[] = [];
  let read = 0;
  for await (const _record of journalRecords(path, (warning) => warnings.push(warning))) read++;
  expect(warnings).toEqual([]);
  expect(read).toBe(records);
}

describe('the journal under concurrent writers', () => {
  it('two processes appending at once leave only whole lines', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-concurrent-')), 'journal.jsonl');
    const writerScript = `
      import { JournalWriter } from ${JSON.stringify(new URL('../../dist/ledger/file/writer.js', import.meta.url).href)};
      const w = new JournalWriter(process.argv[1]);
      for (let i = 0; i < 300; i++) w.append({ kind: 'intent', transactionId: process.argv[2] + i, gateway: 'g'.repeat(2000), agentId: '1', service: 's', account: 'a', amount: '1', currency: 'KZT', invoiceId: null, at: new Date().toISOString() });
    `;
    const run = (prefix: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', writerScript, path, prefix], {
          stdio: 'inherit',
        });
        child.once('close', resolve);
      });
    expect(await Promise.all([run('1'), run('2'), run('3')])).toEqual([0, 0, 0]);
    await expectEveryRecordOnceAndWhole(path, 900);
  }, 30_000);

  it('a writer that opens the journal while a long line is being copied in glues nothing to it', async () => {
    // A megabyte line is copied in a folio at a time, its size ahead of its bytes: the opener
    // cannot tell it from a line torn by a crash, and ends it (writer.ts endsTorn).
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-concurrent-')), 'journal.jsonl');
    const writerScript = `
      import { JournalWriter } from ${JSON.stringify(new URL('../../dist/ledger/file/writer.js', import.meta.url).href)};
      const [path, prefix, count, width, reopen] = process.argv.slice(1);
      let w = new JournalWriter(path);
      for (let i = 0; i < Number(count); i++) {
        if (reopen === 'yes') { w.close(); w = new JournalWriter(path); }
        w.append({ kind: 'intent', transactionId: prefix + i, gateway: 'g'.repeat(Number(width)), agentId: '1', service: 's', account: 'a', amount: '1', currency: 'KZT', invoiceId: null, at: new Date().toISOString() });
      }
    `;
    const run = (...args: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', writerScript, path, ...args], {
          stdio: 'inherit',
        });
        child.once('close', resolve);
      });
    expect(await Promise.all([run('long', '40', '1000000', 'no'), run('short', '200', '10', 'yes')])).toEqual([0, 0]);
    await expectEveryRecordOnceAndWhole(path, 240);
  }, 30_000);
});

describe('Ctrl+C while the payment is out', () => {
  it('never pretends it did not happen: exit 3 with the TransactionID, journal holds it', async () => {
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
    const journal = jsonLines(readFileSync(journalOf(env), 'utf8'));
    expect(journal.filter((r) => r.transactionId === id).map((r) => r.kind)).toEqual(['intent', 'outcome']);
  });
});

describe('SIGTERM while the payment is out (cron, a service manager stopping it)', () => {
  it('ends as Ctrl+C does: exit 3, the TransactionID and how to look it up; the journal keeps it open', async () => {
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
      const journal = jsonLines(readFileSync(journalOf(env), 'utf8')).filter((r) => r.transactionId === id);
      expect(journal.map((r) => [r.kind, (r.view as { state?: string } | undefined)?.state])).toEqual([
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

describe('a journal that cannot be written', () => {
  it('sends no payment at all: exit 6 (a local failure), and the reason', async () => {
    const { sandbox, env } = await setUp();
    // /dev/full accepts the open and refuses every write (ENOSPC).
    const result = await runCli([...payDynamic, '--journal', '/dev/full'], { env });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        message: expect.stringContaining('cannot write the journal /dev/full (ENOSPC); no payment was sent'),
      }),
    });
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});
