import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv } from '../helpers/cli.js';
import { measuredRun } from '../helpers/measured-run.js';

/**
 * pay --from-file holds a file of 300,000 rows in bounded memory (peak RSS under 200 MB) through
 * every check made before a Payment: cells, keys twice, the same purchase twice, the desk's
 * look-back and limits, the plan row by row. The rows are packed (order-store.ts) and their
 * state kept in typed arrays (bulk-rows.ts); with an object and strings a row the same run
 * peaked near 480 MB (it peaks near 160 MB now). 1,000,000 rows stay under 200 MB too.
 */
const rows = 300_000;

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
  it(`checks and plans ${rows.toLocaleString('en')} rows (--dry-run) in under 200 MB, every row in file order`, async () => {
    const env = isolatedEnv();
    const orders = join(env.HOME!, 'orders.csv');
    await writeOrders(orders);
    const { code, lines, first, last, stderr, peakMb } = await measuredRun(env, [
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
    expect(peakMb()).toBeLessThan(200);
  }, 60_000);
});

/**
 * A finished run resumed against its own journal: the same file run again (planned: --dry-run),
 * every row final in the ledger. The ledger's entry of each row is kept packed by row
 * (resume-ledger.ts), and the recent payments only to accounts still to pay (a hundred here); with an
 * entry object a row and every payment of the look-back's window held, this case peaked near
 * 230 MB on Node 20 and 380 MB on Node 24 (it peaks near 125 MB on Node 20 now).
 */
const finished = 100_000;
const firstId = 1_795_798_738_946_608_922n;

/** Every 1,000th row's word did not reach the results file (a kill between the ledger and it) unless `lagging` says which. */
async function writeFinishedRun(home: string, lagging = (i: number) => i % 1000 === 999): Promise<string> {
  const orders = join(home, 'orders.csv');
  await writeOrders(orders, finished);
  const header =
    'line,key,service,account,currency,invoice-id,invoice,amount,transaction-id,paid-amount,paid-invoice-id,voucher,state,status,message\n';
  await writeLines(
    join(home, 'orders.results.csv'),
    header,
    finished,
    // A lagging row's word is the ledger's: its success makes the row final.
    (i) =>
      `${i + 2},order-${i},202,${7_000_000_000 + i},KZT,,,1500.00,${firstId + BigInt(i)},1500.00,,,${lagging(i) ? 'pending,,' : 'success,10,Успех'}\n`,
  );
  mkdirSync(join(home, 'state', 'agentpay'), { recursive: true });
  // Paid a moment ago, inside the duplicate window: each is a recent payment to the file's accounts.
  const start = Date.now() - finished;
  await writeLines(join(home, 'state', 'agentpay', 'sandbox-journal.jsonl'), '', finished, (i) => {
    const owner = { transactionId: (firstId + BigInt(i)).toString(), gateway: 'sandbox', agentId: '1001' };
    const [account, at] = [`${7_000_000_000 + i}`, new Date(start + i).toISOString()];
    const intent = { kind: 'intent', ...owner, service: '202', account, amount: '1500.00', currency: 'KZT' };
    const view = {
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
    };
    return `${JSON.stringify({ ...intent, invoiceId: null, operator: 'root', host: 'vm', at })}\n${JSON.stringify({ kind: 'outcome', ...owner, at, source: 'payment', view })}\n`;
  });
  return orders;
}

describe('pay --from-file resumed at scale', () => {
  it(`plans the resume of a finished run of ${finished.toLocaleString('en')} rows against its own journal in under 180 MB, every row final by the ledger's word`, async () => {
    const env = isolatedEnv();
    const orders = await writeFinishedRun(env.HOME!);
    const { code, lines, first, last, stderr, peakMb } = await measuredRun(env, [
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
    // The last row's word is the ledger's alone: without it the row would be paid again.
    expect(last).toMatch(new RegExp(`"line":${finished + 1},"key":"order-${finished - 1}",.*"done":"success"\\}\\n$`));
    expect(stderr).toContain(`0 payments would be sent (nothing); ${finished} already final, skipped`);
    expect(peakMb()).toBeLessThan(180);
  }, 90_000);

  it('pays (--yes) the same resume to a reader that waits: the result lines wait for it, not in memory', async () => {
    const env = isolatedEnv();
    const orders = await writeFinishedRun(env.HOME!);
    // Written without waiting, the 100,000 lines queued in memory while the reader waited: ~275 MB on Node 20.
    const { code, lines, last, stderr, peakMb } = await measuredRun(
      env,
      ['--sandbox', '--json', 'pay', '--from-file', orders, '--yes'],
      { readerWaitsMs: 12_000 },
    );
    expect(code, stderr).toBe(0);
    expect(lines).toBe(finished);
    expect(last).toMatch(new RegExp(`"line":${finished + 1},"key":"order-${finished - 1}",`));
    expect(peakMb()).toBeLessThan(180);
  }, 120_000);

  it('stops at Ctrl+C within a stretch of rows that end at once (a resume whose results lag the ledger on every row)', async () => {
    const env = isolatedEnv();
    const orders = await writeFinishedRun(env.HOME!, () => true);
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
