import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { windows1251 } from '../helpers/legacy-charsets.js';

// An order file as Excel writes "CSV (semicolon delimited)" in a Russian locale: windows-1251,
// CRLF, semicolons, decimal commas (and a no-break space between thousands), read with
// --encoding windows-1251 and paid against the sandbox; the results file is written in the same
// notation and charset, and the next run resumes from the ledger.
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const excelRows = ['key;service;account;amount', 'Заказ-1;201;Ёлка-7;1500,00', 'Заказ-2;201;Счёт-8;1\u00a0234,5'];
/** Rows as windows-1251 bytes with CRLF; a no-break space is 0xA0 there (the helper's table has letters only). */
const excelBytes = (rows: string[]) =>
  Buffer.concat(
    rows.map((row) =>
      Buffer.concat([
        ...row
          .split('\u00a0')
          .flatMap((part, at) => (at === 0 ? [windows1251(part)] : [Buffer.from([0xa0]), windows1251(part)])),
        Buffer.from('\r\n'),
      ]),
    ),
  );

describe('pay --from-file with a spreadsheet export', () => {
  it('windows-1251 with semicolons and decimal commas: the exact amounts planned and sent, the Cyrillic intact in the results file and the ledger', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const env = { ...started.env, AGENTPAY_SETTLE_DELAY: '20' };
    const orders = join(mkdtempSync(join(tmpdir(), 'agentpay-sheet-')), 'orders.csv');
    writeFileSync(orders, excelBytes(excelRows));

    const refused = await runCli(['pay', '--from-file', orders, '--dry-run'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--encoding windows-1251');

    const planned = await runCli(['pay', '--from-file', orders, '--encoding', 'windows-1251', '--dry-run'], { env });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('Заказ-1');
    expect(planned.stdout).toMatch(/Ёлка-7 +amount +1500\.00 KZT/);
    expect(planned.stdout).toMatch(/Счёт-8 +amount +1234\.5 KZT/);
    expect(paymentsReceived(sandbox)).toHaveLength(0);

    const paid = await runCli(['pay', '--from-file', orders, '--encoding', 'windows-1251', '--yes', '--json'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    expect(jsonLines(paid.stdout).map((line) => [line.key, line.state, line.amount])).toEqual([
      ['Заказ-1', 'success', '1500.00'],
      ['Заказ-2', 'success', '1234.5'],
    ]);
    expect(paymentsReceived(sandbox).map((form) => [form.get('Account'), form.get('Amount')])).toEqual(
      expect.arrayContaining([
        ['Ёлка-7', '1500.00'],
        ['Счёт-8', '1234.5'],
      ]),
    );
    // Back in windows-1251, as the file came (test/e2e/results-file-charset.test.ts has its bytes).
    const results = new TextDecoder('windows-1251').decode(readFileSync(orders.replace(/\.csv$/, '.results.csv')));
    expect(results.split('\r\n')[0]).toMatch(
      /^line;key;service;account;currency;invoice-id;invoice;amount;transaction-id;paid-amount;/,
    );
    expect(results).toMatch(/\r\n3;Заказ-2;201;Счёт-8;KZT;;;1234,5;\d+;1234,5;;;success;/);
    const intents = (await ledgerRecords(defaultLedger(env))).filter((record) => record.kind === 'intent');
    expect(intents.map((intent) => [intent.account, intent.amount]).sort()).toEqual([
      ['Ёлка-7', '1500.00'],
      ['Счёт-8', '1234.5'],
    ]);

    // Run again: every row final by the ledger's word, nothing sent again.
    const again = await runCli(['pay', '--from-file', orders, '--encoding', 'windows-1251', '--yes', '--json'], {
      env,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(jsonLines(again.stdout).map((line) => line.skipped)).toEqual([true, true]);
    expect(paymentsReceived(sandbox)).toHaveLength(2);
    // The resume writes the results file afresh, in windows-1251 again.
    const resumed = readFileSync(orders.replace(/\.csv$/, '.results.csv'));
    expect(resumed.includes(windows1251(';Заказ-2;201;Счёт-8;KZT;;;1234,5;'))).toBe(true);
  });
});
