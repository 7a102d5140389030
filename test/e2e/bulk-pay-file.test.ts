import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeBulkSandbox, dynamicRows, folder, ordersFile, resultsOf, setUp } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';

// `pay --from-file` (bulk top-ups), through the bin against the sandbox: what a file pays, what
// refuses it whole (bad rows, limits, duplicates, a changed file), --dry-run, the batch's exit.
// Nothing is ever paid twice; a bad file sends nothing at all.
afterEach(closeBulkSandbox);

const ofType = (s: RunningSandbox, type: string) => s.received.filter((form) => form.get('RequestType') === type);

describe('pay --from-file', () => {
  it('at a high --concurrency, stderr under --json is JSON lines only (no warning of too many abort listeners)', async () => {
    const { env } = await setUp();
    const orders = ordersFile(dynamicRows(40, 'many'));
    const paid = await runCli(['--json', 'pay', '--from-file', orders, '--yes', '--concurrency', '32'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stderr).not.toContain('MaxListenersExceededWarning');
    for (const line of paid.stderr.split('\n').filter((text) => text !== ''))
      expect(() => JSON.parse(line), line).not.toThrow();
    expect(jsonLines(paid.stdout).filter((line) => line.state === 'success')).toHaveLength(40);
  });

  it('pays every row once, one --json line per row in file order, the results file and the ledger agree; again, every row is skipped', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile([
      'key,service,account,currency,invoice-id,invoice,amount',
      'A,101,p-1,,5002,,',
      'B,101,p-2,KZT,,1,',
      'C,201,p-3,,,,1500.00',
      'D,102,p-4,USD,7010,,10.630',
    ]);
    const paid = await runCli(['pay', '--from-file', orders, '--yes', '--json', '--concurrency', '3'], { env });
    expect(paid.stderr).toContain('4 success (4496.00 KZT + 10.630 USD)');
    expect(paid.code).toBe(0);
    const lines = jsonLines(paid.stdout);
    expect(lines.map((line) => [line.line, line.key, line.state, line.amount, line.voucher])).toEqual([
      [2, 'A', 'success', '2497.00', '550 GameCoins'],
      [3, 'B', 'success', '499.00', '100 GameCoins'],
      [4, 'C', 'success', '1500.00', null],
      [5, 'D', 'success', '10.630', 'Gift card 10 EUR'],
    ]);
    for (const line of lines) expect(typeof line.transactionId).toBe('string');
    expect(paymentsReceived(sandbox).map((form) => form.get('Amount'))).toEqual(
      expect.arrayContaining(['2497.00', '499.00', '1500.00', '10.630']),
    );
    expect(paymentsReceived(sandbox)).toHaveLength(4);
    const results = readFileSync(resultsOf(orders), 'utf8');
    for (const line of lines) expect(results).toContain(`${line.transactionId},`);
    const intents = (await ledgerRecords(defaultLedger(env))).filter((record) => record.kind === 'intent');
    expect(new Set(intents.map((intent) => intent.transactionId))).toEqual(
      new Set(lines.map((line) => line.transactionId)),
    );

    const again = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout).map((line) => [line.transactionId, line.skipped])).toEqual(
      lines.map((line) => [line.transactionId, true]),
    );
    expect(again.stderr).toContain('4 rows already final (skipped)');
    expect(paymentsReceived(sandbox)).toHaveLength(4);
  });

  it('a bad row refuses the whole file: exit 2 naming each line and column, and the gateway saw no request at all', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile([
      'service,account,amount,invoice-id',
      '201,ok-1,100.00,',
      '201,,100.00,',
      '201,ok-2,"1,5",',
      '101,ok-3,,x1',
      '201,ok-4,100.00,',
      '201,ok-5,0.00,',
    ]);
    const result = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'has 4 bad rows, nothing was sent:\n  line 3, account: is empty\n  line 4, amount: "1,5" is not a plain decimal',
    );
    expect(result.stderr).toContain('line 5, invoice-id: "x1" is not an InvoiceId');
    expect(result.stderr).toContain('line 7, amount: an amount of zero pays nothing');
    expect(result.stdout).toBe('');
    expect(sandbox.received).toHaveLength(0);
  });

  it('JSON Lines from stdin need --results; a JSON number for an amount is refused', async () => {
    const { sandbox, env } = await setUp();
    const input =
      '{"service":"201","account":"j-1","amount":"100.00"}\n{"service":"201","account":"j-2","amount":100.5}\n';
    const noResults = await runCli(['pay', '--from-file', '-', '--yes'], { env, input });
    expect(noResults.code).toBe(2);
    expect(noResults.stderr).toContain('--from-file - needs --results <path>');
    const results = join(folder(), 'stdin.results.csv');
    const refused = await runCli(['pay', '--from-file', '-', '--yes', '--results', results], { env, input });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('stdin has 2 bad rows');
    expect(refused.stderr).toContain('line 2, amount: must be a string');
    const good = await runCli(['pay', '--from-file', '-', '--yes', '--results', results, '--json'], {
      env,
      input: input.split('\n')[0]!,
    });
    expect(good.code).toBe(0);
    expect(jsonLines(good.stdout)).toEqual([expect.objectContaining({ line: 1, state: 'success', amount: '100.00' })]);
    expect(sandbox.store.all()).toHaveLength(1);
  });

  it('limits hold across the file: the daily limit over the sums of the rows and the ledger, exit 7 naming the row, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const earlier = await runCli(['pay', '--service', '201', '--account', 'l-0', '--amount', '500.00'], { env });
    expect(earlier.code).toBe(0);
    const orders = ordersFile(['service,account,amount', '201,l-1,300.00', '201,l-2,300.00', '201,l-1,100.00']);
    const limits = ['--daily-limit', 'KZT=1000', '--account-daily-limit', 'KZT=350'];
    const refused = await runCli(['pay', '--from-file', orders, '--yes', ...limits], { env });
    expect(refused.code).toBe(7);
    // 500 (ledger) + 300 + 300 = 1100 > 1000 at line 3; l-1: 300 + 100 > 350 at line 4.
    expect(refused.stderr).toContain('line 3, amount: 300.00 KZT would take');
    expect(refused.stderr).toContain('from 800.00 to 1100.00 KZT');
    expect(refused.stderr).toContain("100.00 KZT would take account l-1's payments today from 300.00 to 400.00 KZT");
    expect(refused.stderr).not.toContain('line 2,');
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    const over = await runCli(['pay', '--from-file', orders, '--yes', '--json', '--over-limit', ...limits], { env });
    expect(over.code).toBe(0);
    expect(paymentsReceived(sandbox)).toHaveLength(4);
    const intents = (await ledgerRecords(defaultLedger(env))).filter((record) => record.kind === 'intent');
    expect(
      intents
        .filter((intent) => (intent.overrides as string[] | undefined)?.includes('over-limit'))
        .map((intent) => intent.account),
    ).toEqual(['l-2', 'l-1']);
  });

  it("an account's daily limit weighs the ledger's payments to the file's accounts, whoever made them", async () => {
    const { sandbox, env } = await setUp();
    expect(
      (
        await runCli(['pay', '--service', '201', '--account', 'm-1', '--amount', '200.00'], {
          env: { ...env, AGENTPAY_OPERATOR: 'bob' },
        })
      ).code,
    ).toBe(0);
    const orders = ordersFile(['service,account,amount', '201,m-2,240.00', '201,m-1,100.00']);
    const refused = await runCli(['pay', '--from-file', orders, '--yes', '--account-daily-limit', 'KZT=250'], { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(
      "line 3, amount: 100.00 KZT would take account m-1's payments today from 200.00 to 300.00 KZT",
    );
    expect(refused.stderr).not.toContain('line 2,');
    expect(paymentsReceived(sandbox)).toHaveLength(1);
  });

  it('duplicates within the file and against the ledger are refused unless --allow-duplicate', async () => {
    const { sandbox, env } = await setUp();
    expect((await runCli(['pay', '--service', '201', '--account', 'd-1', '--amount', '10.00'], { env })).code).toBe(0);
    const orders = ordersFile(['service,account,amount', '201,d-1,10.00', '201,d-2,20.00', '201,d-2,20.00']);
    const refused = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('line 2: repeats transaction');
    expect(refused.stderr).toContain('line 4: the same purchase as line 3');
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    expect((await runCli(['pay', '--from-file', orders, '--yes', '--allow-duplicate'], { env })).code).toBe(0);
    expect(paymentsReceived(sandbox)).toHaveLength(4);
  });

  it('--dry-run makes the AccountChecks, prints the plan and the totals, and sends no Payment; from a script without --yes nothing is sent', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile(['service,account,invoice-id,amount', '101,r-1,5003,', '201,r-2,,1500.00']);
    const script = await runCli(['pay', '--from-file', orders], { env });
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('pays only with --yes');
    expect(sandbox.received).toHaveLength(0);
    const dry = await runCli(['pay', '--from-file', orders, '--dry-run', '--json'], { env });
    expect(dry.code).toBe(0);
    expect(jsonLines(dry.stdout)).toEqual([
      expect.objectContaining({
        dryRun: true,
        line: 2,
        voucher: '1200 GameCoins',
        amount: '4990.50',
        invoiceId: '5003',
      }),
      expect.objectContaining({ dryRun: true, line: 3, voucher: null, amount: '1500.00' }),
    ]);
    expect(dry.stderr).toContain('2 rows 6490.50 KZT');
    expect(ofType(sandbox, 'AccountCheck')).toHaveLength(1);
    expect(ofType(sandbox, 'Payment')).toHaveLength(0);
  });

  it('exits as a batch: a refused row 1, a row in progress 3 (the most severe), the others paid', async () => {
    const { sandbox, env } = await setUp({ behaviour: { pendingPolls: 50 } });
    const orders = ordersFile(['service,account,amount', '201,e-1,100.00', '202,e-2,999.00']);
    const result = await runCli(['pay', '--from-file', orders, '--yes', '--json'], {
      env: { ...env, AGENTPAY_SETTLE_ATTEMPTS: '1' },
    });
    const states = jsonLines(result.stdout).map((line) => line.state);
    expect(states).toEqual(['pending', 'failed']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('run the same command again');
    expect(paymentsReceived(sandbox)).toHaveLength(2);
  });

  it('refuses a file changed since its results file was written, naming the cell', async () => {
    const { env } = await setUp();
    const orders = ordersFile(['service,account,amount', '201,c-1,100.00']);
    expect((await runCli(['pay', '--from-file', orders, '--yes'], { env })).code).toBe(0);
    writeFileSync(orders, 'service,account,amount\n201,c-1,200.00\n');
    const changed = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('line 2 amount "100.00" → "200.00"');
  });
});
