import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  closeBulkSandbox,
  dynamicRows,
  folder,
  ordersFile,
  resultsOf,
  setUp,
  startBulk,
} from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { envFor } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { seededRandom } from '../helpers/seeded-random.js';

// `pay --from-file` interrupted, through the bin: Ctrl+C, a gateway that loses answers, SIGKILL
// at seeded random points. The same command finishes the file; nothing is ever paid twice.
let fake: FakeGateway | undefined;
afterEach(async () => {
  await Promise.all([closeBulkSandbox(), fake?.close()]);
  fake = undefined;
});

describe('Ctrl+C', () => {
  it('starts no new rows, lets those in flight settle, writes the results and exits 130; the same command finishes the file', async () => {
    const { sandbox, env } = await setUp({ faults: { latencyMs: 150 } });
    const orders = ordersFile(dynamicRows(12));
    const { child, done } = startBulk(orders, env, ['--concurrency', '2']);
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Ctrl+C: no new rows start');
    expect(stopped.stderr).toContain('not started');
    const paidFirst = jsonLines(stopped.stdout);
    expect(paidFirst.every((line) => line.state === 'success')).toBe(true);
    expect(paidFirst.length).toBeLessThan(12);
    expect(sandbox.store.all()).toHaveLength(paidFirst.length);
    // Intents written ahead of rows that never started are closed as not sent: no intent is left open.
    const records = await ledgerRecords(defaultLedger(env));
    const answered = new Set(
      records.filter((record) => record.kind === 'outcome').map((record) => record.transactionId),
    );
    const intents = records.filter((record) => record.kind === 'intent');
    expect(intents.filter((intent) => !answered.has(intent.transactionId))).toEqual([]);
    const notSent = records.filter(
      (record) =>
        record.kind === 'outcome' &&
        (record.view as { message: string }).message === 'not sent: the run stopped before this row',
    );
    expect(notSent.length).toBeGreaterThan(0);
    expect(notSent).toHaveLength(intents.length - paidFirst.length);

    const finished = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(finished.code).toBe(0);
    // Those rows are paid now, with the TransactionIDs their intents carry.
    const paidNow = new Map(jsonLines(finished.stdout).map((line) => [line.transactionId, line.state]));
    for (const outcome of notSent) expect(paidNow.get(outcome.transactionId)).toBe('success');
    const accounts = sandbox.store.all().map((t) => t.account);
    expect(accounts.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `acc-${i + 1}`).sort());
  });
});

describe('a purpose-built gateway that loses answers', () => {
  it('an open row is settled by Status on the next run, and a Payment it never saw is sent again with the same TransactionID', async () => {
    // Commits every Payment but cuts the connection instead of answering the first time it sees
    // each TransactionID; Status says "not found" (code 404 here) for the TransactionIDs of accounts
    // ending in 1, whose Payments it drops before committing.
    const committed = new Map<string, string>();
    const seen = new Set<string>();
    fake = await startFakeGateway((form, _request, response) => {
      const id = form.get('TransactionID')!;
      const type = form.get('RequestType');
      if (type === 'Payment') {
        const first = !seen.has(id);
        seen.add(id);
        if (first) {
          if (!form.get('Account')!.endsWith('1')) committed.set(id, form.get('Account')!);
          response.socket?.destroy();
          return;
        }
        committed.set(id, form.get('Account')!);
        return answer(response, 200, envelopeText(form));
      }
      if (type === 'Status')
        return answer(
          response,
          200,
          envelopeText(form, committed.has(id) ? {} : { status: 404, message: 'not found' }),
        );
      answer(response, 200, envelopeText(form));
    });
    const env = envFor({ baseUrl: fake.baseUrl } as RunningSandbox, {
      AGENTPAY_SETTLE_ATTEMPTS: '0',
      AGENTPAY_NOT_FOUND_CODES: '404',
    });
    const orders = ordersFile(['service,account,amount', '201,f-1,10.00', '201,f-2,20.00']);
    const first = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(first.code).toBe(3);
    expect(jsonLines(first.stdout).map((line) => line.state)).toEqual(['unknown', 'unknown']);
    const ids = jsonLines(first.stdout).map((line) => line.transactionId as string);

    const second = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(second.stderr).toContain('2 open (settled by Status)');
    expect(jsonLines(second.stdout).map((line) => [line.transactionId, line.state])).toEqual([
      [ids[0], 'success'],
      [ids[1], 'success'],
    ]);
    expect(second.code).toBe(0);
    const payments = fake.received
      .filter((form) => form.get('RequestType') === 'Payment')
      .map((form) => form.get('TransactionID'));
    // f-2: one Payment (Status found it); f-1: sent again, same TransactionID, after "not found".
    expect(payments.sort()).toEqual([ids[0], ids[0], ids[1]].sort());
    expect(new Set(committed.keys())).toEqual(new Set(ids));
  });
});

const killAt = fileURLToPath(new URL('../helpers/kill-at.cjs', import.meta.url));

describe('killed at seeded random points', () => {
  it('resumes after each SIGKILL: every committed payment once, every row final or open in the results and the ledger', async () => {
    const { sandbox, env } = await setUp({ faults: { failRate: 0.3 } });
    const rows = 10;
    // How many file-changing calls a whole run makes (kill-at.cjs counts them), to draw kill points from.
    const countFile = join(folder(), 'count');
    const probe = ordersFile(dynamicRows(rows, 'probe'));
    await startBulk(probe, { ...env, AGENTPAY_TEST_KILL_COUNT_FILE: countFile }, [], ['--require', killAt]).done;
    const calls = Number(readFileSync(countFile, 'utf8'));
    expect(calls).toBeGreaterThan(rows * 2);
    const seed = Number(process.env.AGENTPAY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
    onTestFailed(() => console.error(`bulk kill trials: AGENTPAY_TEST_SEED=${seed}`));
    const random = seededRandom(seed);
    for (let trial = 0; trial < 4; trial++) {
      const orders = ordersFile(dynamicRows(rows, `t${trial}`));
      // Killed twice at random points, then run to the end.
      for (let kill = 0; kill < 2; kill++) {
        const point = 1 + Math.floor(random() * calls);
        const killed = await startBulk(
          orders,
          { ...env, AGENTPAY_TEST_KILL_AT: String(point) },
          [],
          ['--require', killAt],
        ).done;
        expect([null, 0]).toContain(killed.code);
        // What was written by then: every row in the results file is final or open, or has its id before any Payment.
      }
      const finished = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
      expect(finished.code).toBe(0);
      const lines = jsonLines(finished.stdout);
      expect(lines).toHaveLength(rows);
      expect(lines.every((line) => line.state === 'success')).toBe(true);
      const mine = sandbox.store.all().filter((t) => t.account.startsWith(`t${trial}-`));
      // Paid once each: one committed payment per account, under the row's TransactionID.
      expect(mine.map((t) => t.account).sort()).toEqual(
        Array.from({ length: rows }, (_, i) => `t${trial}-${i + 1}`).sort(),
      );
      expect(new Set(mine.map((t) => t.transactionId))).toEqual(new Set(lines.map((line) => line.transactionId)));
      const results = readFileSync(resultsOf(orders), 'utf8').trim().split('\n').slice(1);
      expect(results).toHaveLength(rows);
      expect(results.filter((line) => !line.includes(',success,'))).toEqual([]);
    }
    const history = jsonLines((await runCli(['history', '--json'], { env })).stdout);
    const committed = new Set(sandbox.store.all().map((t) => t.transactionId));
    for (const id of committed)
      expect(history.some((entry) => entry.transactionId === id && entry.state === 'success')).toBe(true);
  }, 120_000);
});
