import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { closeBulkSandbox, folder, resultsOf, setUp } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { envFor } from '../helpers/gateway-env.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { type SpecServer, startSpecServer } from '../helpers/spec-server.js';

/**
 * The results file goes back to the desk as its order file came: the charset, delimiter,
 * decimal comma and line ends of the file; UTF-8 with a BOM (how Excel knows UTF-8) when the
 * gateway says something the file's charset cannot hold. Each file is read as Excel in a
 * Russian locale opens a CSV: UTF-8 after a BOM, else windows-1251, cells between semicolons.
 */
let gateway: SpecServer | undefined;
afterEach(async () => {
  await closeBulkSandbox();
  await gateway?.close();
  gateway = undefined;
});

const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** The cells of a CSV as a Russian Excel opens it by a double click. */
function asRussianExcelOpens(bytes: Buffer): string[][] {
  const text = bytes.subarray(0, 3).equals(utf8Bom)
    ? bytes.toString('utf8', 3)
    : new TextDecoder('windows-1251').decode(bytes);
  return parse(text, { delimiter: ';', relax_column_count: true });
}

const excelRows = ['key;service;account;amount', 'Заказ-1;201;Ёлка-7;1500,00', 'Заказ-2;201;Счёт-8;1234,5'];

function writeOrders(bytes: Buffer): string {
  const path = join(folder(), 'orders.csv');
  writeFileSync(path, bytes);
  return path;
}

/** The cells of each row in the results file Excel shows: key, account, amount, transaction-id, paid-amount, state, message. */
const shown = (cells: string[][]) =>
  cells.slice(1).map((row) => [row[1], row[3], row[7], row[8], row[9], row[12], row[14]]);

describe('the results file of pay --from-file, as its order file came', () => {
  it('windows-1251, semicolons, decimal commas, CRLF in: the same out, the Cyrillic in windows-1251 bytes', async () => {
    const { env } = await setUp();
    const orders = writeOrders(windows1251(`${excelRows.join('\r\n')}\r\n`));
    const paid = await runCli(['pay', '--from-file', orders, '--encoding', 'windows-1251', '--yes', '--json'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const ids = jsonLines(paid.stdout).map((line) => line.transactionId as string);

    const bytes = readFileSync(resultsOf(orders));
    expect(bytes.subarray(0, 3).equals(utf8Bom)).toBe(false);
    // Each row's line is the windows-1251 bytes of its text: the Cyrillic one byte a letter, `;`, `,`, CRLF.
    expect(bytes.includes(windows1251(`\r\n2;Заказ-1;201;Ёлка-7;KZT;;;1500,00;${ids[0]};1500,00;;;success;`))).toBe(
      true,
    );
    expect(bytes.includes(windows1251(`\r\n3;Заказ-2;201;Счёт-8;KZT;;;1234,5;${ids[1]};1234,5;;;success;`))).toBe(true);
    expect(bytes.toString('latin1').split('\r\n')).toHaveLength(4);
    expect(bytes.toString('latin1')).not.toMatch(/[^\r]\n/);

    const cells = asRussianExcelOpens(bytes);
    expect(cells[0]?.slice(0, 9)).toEqual([
      'line',
      'key',
      'service',
      'account',
      'currency',
      'invoice-id',
      'invoice',
      'amount',
      'transaction-id',
    ]);
    expect(shown(cells).map((row) => row.slice(0, 6))).toEqual([
      ['Заказ-1', 'Ёлка-7', '1500,00', ids[0], '1500,00', 'success'],
      ['Заказ-2', 'Счёт-8', '1234,5', ids[1], '1234,5', 'success'],
    ]);
    // The TransactionID is the ledger's string of digits, byte for byte (a Long, never a number).
    for (const id of ids) expect(id).toMatch(/^\d{1,19}$/);
  });

  it('a gateway message windows-1251 cannot hold turns the whole file into UTF-8 with a BOM, every line kept, and says so', async () => {
    const message = 'Төлем қабылданды ✅';
    gateway = await startSpecServer({ paymentMessages: { 'Счёт-8': message } });
    const env = envFor({ baseUrl: gateway.baseUrl } as RunningSandbox);
    const orders = writeOrders(windows1251(`${excelRows.join('\r\n')}\r\n`));
    const paid = await runCli(
      ['pay', '--from-file', orders, '--encoding', 'windows-1251', '--yes', '--json', '--concurrency', '1'],
      { env },
    );
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stderr).toContain('is written in UTF-8 with a BOM');
    expect(paid.stderr).toContain('windows-1251');
    const ids = jsonLines(paid.stdout).map((line) => line.transactionId as string);

    const bytes = readFileSync(resultsOf(orders));
    expect(bytes.subarray(0, 3).equals(utf8Bom)).toBe(true);
    expect(bytes.indexOf(utf8Bom, 3)).toBe(-1);
    const text = bytes.toString('utf8', 3);
    expect(text).toContain(`\r\n3;Заказ-2;201;Счёт-8;KZT;;;1234,5;${ids[1]};1234,5;;;success;10;${message}\r\n`);
    expect(shown(asRussianExcelOpens(bytes))).toEqual([
      ['Заказ-1', 'Ёлка-7', '1500,00', ids[0], '1500,00', 'success', 'Success'],
      ['Заказ-2', 'Счёт-8', '1234,5', ids[1], '1234,5', 'success', message],
    ]);
    // The file was replaced whole: no temporary file is left beside it.
    expect(readdirSync(dirname(orders)).sort()).toEqual(['orders.csv', 'orders.results.csv']);
  });

  it('UTF-8 with a BOM in (Excel\'s "CSV UTF-8"): UTF-8 with one BOM out at --results, semicolons and decimal commas', async () => {
    const { env } = await setUp();
    const orders = writeOrders(Buffer.concat([utf8Bom, Buffer.from(`${excelRows.join('\r\n')}\r\n`)]));
    const results = join(folder(), 'desk.csv');
    const paid = await runCli(['pay', '--from-file', orders, '--results', results, '--yes', '--json'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const ids = jsonLines(paid.stdout).map((line) => line.transactionId as string);

    const bytes = readFileSync(results);
    expect(bytes.subarray(0, 3).equals(utf8Bom)).toBe(true);
    expect(bytes.indexOf(utf8Bom, 3)).toBe(-1);
    expect(bytes.toString('utf8', 3)).toMatch(/^line;key;service;account;.*\r\n2;Заказ-1;201;Ёлка-7;KZT;;;1500,00;/s);
    expect(shown(asRussianExcelOpens(bytes)).map((row) => row.slice(0, 6))).toEqual([
      ['Заказ-1', 'Ёлка-7', '1500,00', ids[0], '1500,00', 'success'],
      ['Заказ-2', 'Счёт-8', '1234,5', ids[1], '1234,5', 'success'],
    ]);
  });

  it('plain UTF-8 with commas and LF in: UTF-8 without a BOM out, commas, decimal points, LF', async () => {
    const { env } = await setUp();
    const orders = writeOrders(Buffer.from('key,service,account,amount\nk1,201,Ёлка-7,1500.00\n'));
    const paid = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const [id] = jsonLines(paid.stdout).map((line) => line.transactionId as string);

    const bytes = readFileSync(resultsOf(orders));
    expect(bytes[0]).toBe(0x6c);
    const lines = bytes.toString('utf8').split('\n');
    expect(lines[0]).toBe(
      'line,key,service,account,currency,invoice-id,invoice,amount,transaction-id,paid-amount,paid-invoice-id,voucher,state,status,message',
    );
    expect(lines[1]).toMatch(new RegExp(`^2,k1,201,Ёлка-7,KZT,,,1500\\.00,${id},1500\\.00,,,success,`));
    expect(bytes.includes('\r')).toBe(false);
  });
});
