import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/ledger/records.js';
import { keepEarlierRun, staticOrder } from '../helpers/bulk-run-seed.js';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { sandboxLedger, seedLedger } from '../helpers/ledger-file.js';
import { measuredRun } from '../helpers/measured-run.js';

/** pay --from-file through every check made before a Payment (cells, keys and purchases twice, the desk's
 * look-back and limits, the plan row by row), the rows streamed through the ledger: 25,000 rows are pages of
 * 10,000 accounts asked (plan.ts, sql/reads.ts) and a half. Memory is the bench's (scripts/bench). */
const rows = 25_000;

/** Writes `count` lines, made one at a time, to `path` in pieces of ~1 MiB. */
async function writeLines(path: string, first: string, count: number, line: (i: number) => string): Promise<void> {
  const stream = createWriteStream(path);
  let chunk = first;
  for (let i = 0; i < count; i++) {
    chunk += line(i);
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  await new Promise<void>((resolve) => stream.end(chunk, () => resolve()));
}

const writeOrders = (path: string, count = rows) =>
  writeLines(path, 'key,service,account,amount\n', count, (i) => `order-${i},202,${7_000_000_000 + i},1500.00\n`);

describe('pay --from-file at scale', () => {
  it(`checks and plans ${rows.toLocaleString('en')} rows (--dry-run), every row in file order`, async () => {
    const env = isolatedEnv();
    const orders = join(env.HOME!, 'orders.csv');
    await writeOrders(orders);
    const { code, lines, first, last, stderr } = await measuredRun(env, [
      '--sandbox',
      '--json',
      'pay',
      '--from-file',
      orders,
      '--dry-run',
    ]);
    expect(code, stderr).toBe(0);
    expect(lines).toBe(rows);
    expect(first).toMatch(/^\{"dryRun":true,.*"line":2,.*"key":"order-0".*"account":"7000000000"/);
    expect(last).toMatch(
      new RegExp(`"line":${rows + 1},.*"key":"order-${rows - 1}".*"account":"${7_000_000_000 + rows - 1}"`),
    );
    expect(stderr).toContain(`${rows} payments would be sent`);
  }, 90_000);
});

/** A finished run resumed: the same file run again, every row final in the ledger (--sandbox's);
 * more rows than a run keeps read ahead and behind (pay-rows.ts). */
const finished = 10_000;
const firstId = 1_795_798_738_946_608_922n;

/** The order file, its earlier run's rows kept in the ledger, and each row's payment there, a moment ago. */
async function writeFinishedRun(home: string, env: Record<string, string>): Promise<string> {
  const orders = join(home, 'orders.csv');
  await writeOrders(orders, finished);
  const ledger = sandboxLedger(env);
  const start = Date.now() - finished;
  const records: JournalRecord[] = [];
  for (let i = 0; i < finished; i++) {
    const owner = { transactionId: (firstId + BigInt(i)).toString(), gateway: 'sandbox', agentId: '1001' };
    const [account, at] = [`${7_000_000_000 + i}`, new Date(start + i).toISOString()];
    records.push(
      { kind: 'intent', ...owner, service: '202', account, amount: '1500.00', currency: 'KZT', invoiceId: null, at },
      {
        kind: 'outcome',
        ...owner,
        at,
        source: 'payment',
        view: {
          transactionId: owner.transactionId,
          requestId: `${9_007_199_254_740_993n + BigInt(i)}`,
          type: 'Payment',
          status: '10',
          state: 'success',
          message: 'Успех',
          service: '202',
          account,
          amount: '1500.00',
          currency: 'KZT',
          exchangeRate: '1',
          serviceCurrency: 'KZT',
        },
      },
    );
  }
  await seedLedger(ledger, records);
  await keepEarlierRun(
    ledger,
    { gateway: 'sandbox', agentId: '1001' },
    join(home, 'orders.results.csv'),
    Array.from({ length: finished }, (_, i) => ({
      order: staticOrder(i + 2, `order-${i}`, '202', `${7_000_000_000 + i}`, '1500.00'),
      transactionId: (firstId + BigInt(i)).toString(),
    })),
  );
  return orders;
}

// The finished run is made once and copied to the same HOME for each test: its rows are kept under the results
// file's absolute path (run.ts runKeyOf), so that a copy elsewhere would be another run.
const runHome = join(tmpdir(), `agentpay-finished-run-${process.pid}`);
const template = `${runHome}-made`;
let made = false;

/** A HOME holding the finished run, as writeFinishedRun left it; its order file. */
async function finishedRun(): Promise<{ env: Record<string, string>; orders: string }> {
  const env: Record<string, string> = { ...isolatedEnv(), HOME: runHome };
  Object.assign(env, { XDG_CONFIG_HOME: join(runHome, 'config'), XDG_STATE_HOME: join(runHome, 'state') });
  if (made) {
    rmSync(runHome, { recursive: true, force: true });
    cpSync(template, runHome, { recursive: true });
  } else {
    mkdirSync(runHome, { recursive: true });
    await writeFinishedRun(runHome, env);
    cpSync(runHome, template, { recursive: true });
    made = true;
  }
  return { env, orders: join(runHome, 'orders.csv') };
}

describe('pay --from-file resumed at scale', () => {
  it(`plans the resume of a finished run of ${finished.toLocaleString('en')} rows, every row final by the ledger's word`, async () => {
    const { env, orders } = await finishedRun();
    const { code, lines, first, last, stderr } = await measuredRun(env, [
      '--sandbox',
      '--json',
      'pay',
      '--from-file',
      orders,
      '--dry-run',
    ]);
    expect(code, stderr).toBe(0);
    expect(lines).toBe(finished);
    expect(first).toMatch(/^\{"dryRun":true,"line":2,"key":"order-0",.*"done":"success"\}/);
    expect(last).toMatch(new RegExp(`"line":${finished + 1},"key":"order-${finished - 1}",.*"done":"success"\\}\\n$`));
    expect(stderr).toContain(`0 payments would be sent (nothing); ${finished} already final, skipped`);
  }, 90_000);

  it('pays (--yes) the same resume to a reader that waits: every result line reaches it', async () => {
    const { env, orders } = await finishedRun();
    const { code, lines, last, stderr } = await measuredRun(
      env,
      ['--sandbox', '--json', 'pay', '--from-file', orders, '--yes'],
      { readerWaitsMs: 3_000 },
    );
    expect(code, stderr).toBe(0);
    expect(lines).toBe(finished);
    expect(last).toMatch(new RegExp(`"line":${finished + 1},"key":"order-${finished - 1}",`));
  }, 120_000);

  it('stops at Ctrl+C within a stretch of rows that end at once (a resume of a finished run)', async () => {
    const { env, orders } = await finishedRun();
    const child = spawn(process.execPath, [binPath, '--sandbox', '--json', 'pay', '--from-file', orders, '--yes'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [lines, stderr] = [0, ''];
    child.stdout.on('data', (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    // These rows end without waiting on anything: before, they all ended in one turn of the event
    // loop, the signal was handled only after the last, and every row was done (exit 0).
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('Ctrl+C: no new rows start');
    expect(lines).toBeLessThan(finished / 2);
  }, 120_000);
});
