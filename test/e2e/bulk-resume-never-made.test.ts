import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { ordersFile, resultsOf, startBulk } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { envFor } from '../helpers/gateway-env.js';
import { freshDatabase, type PostgresServer, startPostgres } from '../helpers/postgres.js';

// A bulk run SIGKILLed while a Payment is on its way (rows written ahead never sent), then a cron
// `reconcile` past its grace closes those rows as "never made", then the same command resumes:
// every row is paid, exactly once, and the summary names what became of each row.
const rows = 12;
const killAtPayment = 5;

let server: PostgresServer | undefined;
let fake: FakeGateway | undefined;
beforeAll(async () => {
  server = await startPostgres();
}, 30_000);
afterAll(async () => {
  await server?.remove();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/**
 * Commits and answers every Payment but the killAtPayment-th of the first run: that one it keeps
 * without committing while the run is SIGKILLed. Status: 10 for a committed payment, 404 (a
 * notFound code) for any other.
 */
async function gatewayThatKills(run: () => ChildProcess | undefined) {
  const committed = new Map<string, number>();
  let payments = 0;
  fake = await startFakeGateway((form, _request, response) => {
    const id = form.get('TransactionID')!;
    const type = form.get('RequestType');
    if (type === 'Payment') {
      if (++payments === killAtPayment) {
        // A moment for the intents written ahead of the next rows to reach the ledger.
        setTimeout(() => run()?.kill('SIGKILL'), 300);
        return;
      }
      committed.set(id, (committed.get(id) ?? 0) + 1);
      return answer(response, 200, envelopeText(form));
    }
    if (type === 'Status')
      return answer(response, 200, envelopeText(form, committed.has(id) ? {} : { status: 404, message: 'not found' }));
    answer(response, 200, envelopeText(form));
  });
  return { gateway: fake, committed };
}

async function killReconcileResume(ledger: Record<string, string>) {
  let child: ChildProcess | undefined;
  const { gateway, committed } = await gatewayThatKills(() => child);
  const env = envFor({ baseUrl: gateway.baseUrl } as RunningSandbox, {
    AGENTPAY_SETTLE_ATTEMPTS: '0',
    AGENTPAY_NOT_FOUND_CODES: '404',
    ...ledger,
  });
  const lines = ['service,account,amount', ...Array.from({ length: rows }, (_, i) => `201,nm-${i + 1},10.00`)];
  const orders = ordersFile(lines);
  const started = startBulk(orders, env, ['--concurrency', '1']);
  child = started.child;
  expect((await started.done).code).toBeNull();

  const reconciled = await runCli(['reconcile', '--grace', '0', '--json'], { env });
  expect(reconciled.code).toBe(0);
  const neverMade = jsonLines(reconciled.stdout).filter((line) => String(line.message).startsWith('never made'));
  // The Payment cut by the kill, and at least one row written ahead and never sent.
  expect(neverMade.length).toBeGreaterThanOrEqual(2);

  const resumed = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
  const results = jsonLines(resumed.stdout);
  expect(results.map((line) => line.state)).toEqual(lines.slice(1).map(() => 'success'));
  expect(resumed.code).toBe(0);
  expect(resumed.stderr).toContain(`${killAtPayment - 1} skipped, already success (`);
  expect(resumed.stderr).toContain(`${neverMade.length} success, paid again (never made before) (`);
  const ids = results.map((line) => line.transactionId as string);
  // Every row paid once, under its own TransactionID: what the gateway committed.
  expect([...committed.keys()].sort()).toEqual([...ids].sort());
  expect([...committed.values()].every((count) => count === 1)).toBe(true);
  // What it received: one Payment a TransactionID, two for the one whose Payment the kill cut.
  const received = new Map<string, number>();
  for (const form of gateway.received.filter((form) => form.get('RequestType') === 'Payment'))
    received.set(form.get('TransactionID')!, (received.get(form.get('TransactionID')!) ?? 0) + 1);
  expect([...received.values()].sort()).toEqual([...ids.slice(1).map(() => 1), 2]);
  const resultsFile = readFileSync(resultsOf(orders), 'utf8').trim().split('\n').slice(1);
  expect(resultsFile.filter((line) => !line.includes(',success,'))).toEqual([]);
}

describe('a resume after a kill and a reconcile that closed rows as "never made"', () => {
  it('pays them with their same TransactionIDs, once each, on the SQLite ledger', async () => {
    await killReconcileResume({});
  }, 60_000);

  it('pays them with their same TransactionIDs, once each, on a PostgreSQL team ledger', async () => {
    await killReconcileResume({ AGENTPAY_LEDGER: await freshDatabase(server!), AGENTPAY_OPERATOR: 'ann' });
  }, 60_000);
});
