import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { folder, ordersFile, resultsOf } from '../helpers/bulk-orders.js';
import { keepEarlierRun, staticOrder } from '../helpers/bulk-run-seed.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger } from '../helpers/ledger-file.js';
import { freshDatabase, type PostgresServer, startPostgres } from '../helpers/postgres.js';

// A bulk run resumed against its ledger decides each row from the ledger's latest word on the
// TransactionID the earlier run kept for it: final (skipped, the ledger's word shown), open
// (settled by Status first) or new (paid again, same TransactionID). Rows built so that a reading
// that got any of the ledger's rules wrong would decide one of them otherwise, on the SQLite
// ledger and on PostgreSQL (the same journal of an earlier agentpay imported into each).
let sandbox: RunningSandbox;
let server: PostgresServer;

beforeAll(async () => {
  [sandbox, server] = await Promise.all([startSandbox({ recordRequests: true }), startPostgres()]);
}, 30_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), server?.remove()]);
});

const agentId: string = sandboxCredentials.agentId;
const firstId = 4_000_000_000_000_000_000n;
/** The rows, and how the run must start each (the ledger's word decides). */
const rows = [
  { name: 'A', start: 'final' }, // the ledger says success
  { name: 'B', start: 'open' }, // failed, status null: not sent, paid again
  { name: 'C', start: 'final' }, // the gateway's failure
  { name: 'D', start: 'open' }, // the gateway's failure, then a new attempt
  { name: 'E', start: 'final' }, // success, then a stale failure
  { name: 'F', start: 'new' }, // only another agent's records under the same TransactionID
  { name: 'G', start: 'open' }, // an intent without an answer
  { name: 'H', start: 'open' }, // pending
  { name: 'I', start: 'new' }, // nothing in the ledger
  { name: 'J', start: 'final' }, // success, many records after its intent
] as const;
const idOf = (name: string) => (firstId + BigInt(name.charCodeAt(0) - 65)).toString();
const accountOf = (name: string) => `acc-${name}`;

const intent = (gateway: string, name: string, day: string, agent = agentId) =>
  JSON.stringify({
    kind: 'intent',
    transactionId: idOf(name),
    gateway,
    agentId: agent,
    service: '202',
    account: accountOf(name),
    amount: '1500.00',
    currency: 'KZT',
    invoiceId: null,
    operator: 'ann',
    host: 'vm',
    at: `${day}T10:00:00.000Z`,
  });
const outcome = (gateway: string, name: string, day: string, word: Record<string, unknown>, agent = agentId) =>
  JSON.stringify({
    kind: 'outcome',
    transactionId: idOf(name),
    gateway,
    agentId: agent,
    at: `${day}T10:00:01.000Z`,
    source: 'payment',
    view: {
      transactionId: idOf(name),
      requestId: null,
      type: 'Payment',
      status: null,
      message: '',
      service: '202',
      account: accountOf(name),
      amount: '1500.00',
      currency: 'KZT',
      exchangeRate: null,
      serviceCurrency: null,
      ...word,
    },
  });

/** The journal an earlier agentpay wrote, in its order. */
function journalRecords(gateway: string, fillers: number): string[] {
  const [i, o] = [(name: string) => intent(gateway, name, '2026-01-05'), outcome.bind(null, gateway)];
  const day = '2026-01-05';
  // Another agent's payments, each answered at once: J's answer comes long after its intent.
  const filler = Array.from({ length: fillers }, (_, n) =>
    [intent(gateway, 'A', day, '999'), outcome(gateway, 'A', day, { state: 'success' }, '999')]
      .map((line) => line.replaceAll(idOf('A'), `${9_000_000 + n}`))
      .join('\n'),
  );
  return [
    i('A'),
    o('A', day, { state: 'success', status: '10', requestId: '9001', message: 'ledger: paid' }),
    i('B'),
    o('B', day, { state: 'failed', message: 'not sent' }),
    i('C'),
    o('C', day, { state: 'failed', status: '20', requestId: '9003', message: 'ledger: refused' }),
    i('D'),
    o('D', day, { state: 'failed', status: '20', requestId: '9004', message: 'ledger: refused' }),
    i('E'),
    o('E', day, { state: 'success', status: '10', requestId: '9005', message: 'ledger: paid E' }),
    o('E', '2026-01-06', { state: 'failed', message: 'not sent (late)' }),
    intent(gateway, 'F', day, '999'),
    outcome(gateway, 'F', day, { state: 'success', status: '10', message: 'another agent' }, '999'),
    i('G'),
    i('H'),
    o('H', day, { state: 'pending', status: '1', message: 'ledger: pending' }),
    i('J'),
    ...filler,
    o('J', day, { state: 'success', status: '10', requestId: '9010', message: 'ledger: paid J' }),
    intent(gateway, 'D', '2026-01-07'),
  ];
}

/**
 * The order file, its earlier run's rows kept in the ledger at `ledger` with the TransactionIDs
 * of the journal, and the journal imported there.
 */
async function resumeFiles(env: Record<string, string>, ledger: string, fillers: number): Promise<string> {
  const gateway = sandbox.baseUrl.replace(/\/+$/, '');
  const orders = ordersFile([
    'key,service,account,amount',
    ...rows.map(({ name }) => `k-${name},202,${accountOf(name)},1500.00`),
  ]);
  const kept = rows.map(({ name }, n) => ({
    order: staticOrder(n + 2, `k-${name}`, '202', accountOf(name), '1500.00'),
    transactionId: idOf(name),
  }));
  // As a run keeps them: the rows before any payment under their TransactionIDs (the team ledger refuses
  // a row kept after).
  await keepEarlierRun(ledger, { gateway, agentId }, resultsOf(orders), kept);
  const journal = join(folder(), 'journal.jsonl');
  writeFileSync(journal, `${journalRecords(gateway, fillers).join('\n')}\n`);
  const imported = await runCli(['ledger', 'import', journal], { env });
  expect(imported.code, imported.stderr).toBe(0);
  return orders;
}

/** Resumes the file with `env` (dry run, then for real) and checks how each row started. */
async function expectStarts(env: Record<string, string>, orders: string) {
  const dry = await runCli(['pay', '--from-file', orders, '--dry-run', '--json'], { env });
  expect(dry.code, dry.stderr).toBe(0);
  const planned = jsonLines(dry.stdout);
  expect(planned.map((row) => [row.key, row.done ?? null])).toEqual(
    rows.map(({ name, start }) => [`k-${name}`, start === 'final' ? (name === 'C' ? 'failed' : 'success') : null]),
  );
  const before = sandbox.received.length;
  const paid = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
  const sent = sandbox.received.slice(before);
  const asked = (type: string, name: string) =>
    sent.some((form) => form.get('RequestType') === type && form.get('TransactionID') === idOf(name));
  const starts = rows.map(({ name }) => {
    if (!sent.some((form) => form.get('TransactionID') === idOf(name))) return [name, 'final'];
    return [name, asked('Status', name) ? 'open' : asked('Payment', name) ? 'new' : '?'];
  });
  expect(starts, paid.stderr).toEqual(rows.map(({ name, start }) => [name, start]));
  const results = new Map(jsonLines(paid.stdout).map((line) => [line.key, line]));
  // A final row shows the ledger's word, not the results file's.
  expect(results.get('k-A')).toMatchObject({
    skipped: true,
    state: 'success',
    requestId: '9001',
    message: 'ledger: paid',
  });
  expect(results.get('k-C')).toMatchObject({
    skipped: true,
    state: 'failed',
    status: '20',
    message: 'ledger: refused',
  });
  expect(results.get('k-E')).toMatchObject({ skipped: true, state: 'success', message: 'ledger: paid E' });
  expect(results.get('k-J')).toMatchObject({ skipped: true, state: 'success', requestId: '9010' });
}

describe('a resumed run decides each row by the ledger', () => {
  it('on the SQLite ledger', async () => {
    const env = envFor(sandbox, { AGENTPAY_SETTLE_DELAY: '20' });
    await expectStarts(env, await resumeFiles(env, defaultLedger(env), 2100));
  });

  it('on PostgreSQL', { timeout: 120_000 }, async () => {
    const ledger = await freshDatabase(server);
    const env = envFor(sandbox, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: 'ann', AGENTPAY_SETTLE_DELAY: '20' });
    await expectStarts(env, await resumeFiles(env, ledger, 10));
  });
});

describe("a resumed run weighs the ledger's recent payments", () => {
  it('to the accounts of its rows still to pay: a duplicate is refused, and paid with --allow-duplicate', async () => {
    const env = envFor(sandbox, { AGENTPAY_SETTLE_DELAY: '20' });
    const earlier = await runCli(['pay', '--service', '201', '--account', 'r-1', '--amount', '10.00'], { env });
    expect(earlier.code, earlier.stderr).toBe(0);
    const orders = ordersFile(['key,service,account,amount', 'k-1,201,r-1,10.00', 'k-2,201,r-2,20.00']);
    // The earlier run: k-1 never sent, k-2 paid.
    const gateway = sandbox.baseUrl.replace(/\/+$/, '');
    await keepEarlierRun(defaultLedger(env), { gateway, agentId }, resultsOf(orders), [
      { order: staticOrder(2, 'k-1', '201', 'r-1', '10.00'), transactionId: idOf('R') },
      { order: staticOrder(3, 'k-2', '201', 'r-2', '20.00'), transactionId: idOf('S') },
    ]);
    const paidS = await runCli(
      ['pay', '--service', '201', '--account', 'r-2', '--amount', '20.00', '--txn-id', idOf('S')],
      {
        env,
      },
    );
    expect(paidS.code, paidS.stderr).toBe(0);
    const refused = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('line 2: repeats transaction');
    const before = sandbox.received.length;
    const paid = await runCli(['pay', '--from-file', orders, '--yes', '--json', '--allow-duplicate'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const payments = sandbox.received.slice(before).filter((form) => form.get('RequestType') === 'Payment');
    expect(payments.map((form) => form.get('TransactionID'))).toEqual([idOf('R')]);
  });
});

describe('a resumed run whose ledger was written by hand', () => {
  it('refuses a row whose kept TransactionID the ledger holds for another purchase, and pays nothing', async () => {
    const env = envFor(sandbox, { AGENTPAY_SETTLE_DELAY: '20' });
    // Set-up in-process; a payment through the bin is bulk-run-rows.test.ts's.
    const other = await runInProcess(
      ['--json', 'pay', '--service', '201', '--account', 'mis-0', '--amount', '700.00'],
      env,
    );
    expect(other.code, other.stderr).toBe(0);
    const paid = String(jsonLines(other.stdout)[0]!.transactionId);
    const orders = ordersFile(['key,service,account,amount', 'm-1,201,mis-1,900.00', 'm-2,201,mis-2,5.00']);
    // What plain SQL could write into a team ledger before migration 10: line 2 pointed at that payment.
    const gateway = sandbox.baseUrl.replace(/\/+$/, '');
    await keepEarlierRun(defaultLedger(env), { gateway, agentId }, resultsOf(orders), [
      { order: staticOrder(2, 'm-1', '201', 'mis-1', '900.00'), transactionId: paid },
    ]);
    const before = sandbox.received.length;
    const run = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect([run.code, run.stderr]).toEqual([
      2,
      expect.stringContaining(`line 2: ${paid} paid account mis-0, 700.00 KZT`),
    ]);
    expect(run.stderr).toContain('nothing was sent');
    expect(sandbox.received.slice(before)).toEqual([]);
  });
});
