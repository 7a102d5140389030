import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrderNotation } from '../../src/commands/pay/bulk/order-text.js';
import { delimiterOption, encodingOption } from '../../src/commands/spreadsheet-options.js';
import { UsageError } from '../../src/errors.js';
import { fromDecimalComma, toDecimalComma } from '../../src/protocol/decimal-comma.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { readOrderFile } from '../helpers/order-file.js';
import { rejection } from '../helpers/thrown.js';

const folder = mkdtempSync(join(tmpdir(), 'agentpay-notation-'));
let files = 0;
const none: OrderNotation = { delimiter: undefined, decimalComma: false, encoding: undefined };
const read = async (bytes: string | Buffer, notation: Partial<OrderNotation> = {}, extension = 'csv') => {
  const path = join(folder, `orders-${++files}.${extension}`);
  writeFileSync(path, bytes);
  const { rows, written } = await readOrderFile(path, undefined, () => process.stdin, { ...none, ...notation });
  return { rows: [...rows].map(({ line, key, account, amount }) => ({ line, key, account, amount })), written };
};

describe('an order file as a spreadsheet writes it', () => {
  it('semicolons found from the header line, decimal commas read as the exact amount with a point (BOM, CRLF)', async () => {
    const { rows, written } = await read(
      '\uFEFFkey;service;account;amount\r\nK1;201;a-1;1500,00\r\nK2;201;a-2;1 500,5\r\nK3;201;a-3;1\u00a0234\u00a0567,01\r\nK4;201;a-4;7\r\n',
    );
    expect(rows.map((row) => row.amount)).toEqual(['1500.00', '1500.5', '1234567.01', '7']);
    // How the file came is how its results file goes back.
    expect(written).toEqual({ delimiter: ';', decimalComma: true, lineEnd: '\r\n', encoding: 'utf-8', bom: true });
  });

  it('a tab-separated file, and --delimiter given over what the header holds', async () => {
    expect((await read('service\taccount\tamount\n201\ta-1\t2,50\n')).rows[0]!.amount).toBe('2.50');
    // The header holds more commas than semicolons, but --delimiter says semicolon: one column "a,b".
    const given = await read('service;account;amount\n201;a,b;3,00\n', { delimiter: ';' });
    expect(given.rows[0]).toMatchObject({ account: 'a,b', amount: '3.00' });
  });

  it('a comma file keeps the decimal point; --decimal-comma reads a quoted "1,50" there', async () => {
    const plain = await read('service,account,amount\n201,a-1,1.50\n');
    expect(plain.rows[0]!.amount).toBe('1.50');
    expect(plain.written).toEqual({
      delimiter: ',',
      decimalComma: false,
      lineEnd: '\n',
      encoding: 'utf-8',
      bom: false,
    });
    await expect(read('service,account,amount\n201,a-1,"1,50"\n')).rejects.toThrow(/"1,50" is not a plain decimal/);
    expect((await read('service,account,amount\n201,a-1,"1,50"\n', { decimalComma: true })).rows[0]!.amount).toBe(
      '1.50',
    );
  });

  it('grouping that is not by threes, a point and a comma together, two commas: refused as written', async () => {
    const error = await rejection(() => read('service;account;amount\n201;a;1 50,00\n201;b;1.500,00\n201;c;1,5,0\n'));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('line 2, amount: "1 50,00" is not a plain decimal');
    expect(error.message).toContain('line 3, amount: "1.500,00" is not a plain decimal');
    expect(error.message).toContain('line 4, amount: "1,5,0" is not a plain decimal');
  });

  it('windows-1251 bytes with --encoding windows-1251: the Cyrillic key intact; without it, refused', async () => {
    const bytes = windows1251('key;service;account;amount\r\nЗаказ-1;201;Ёлка-7;1500,00\r\n');
    const { rows, written } = await read(bytes, { encoding: 'windows-1251' });
    expect(rows).toEqual([{ line: 2, key: 'Заказ-1', account: 'Ёлка-7', amount: '1500.00' }]);
    expect(written).toMatchObject({ delimiter: ';', decimalComma: true, lineEnd: '\r\n', encoding: 'windows-1251' });
    const error = await rejection(() => read(bytes));
    expect(error.message).toContain('line 2: byte 0xC7 at column 1 is not UTF-8');
    expect((error as UsageError).hint).toContain('--encoding windows-1251');
  });

  it('a UTF-8 BOM is dropped with --encoding utf-8 too; bytes with no character in the encoding refuse the file', async () => {
    const withBom = await read('\uFEFFservice;account;amount\n201;a;1,00\n', { encoding: 'utf-8' });
    expect(withBom.rows[0]!.amount).toBe('1.00');
    expect(withBom.written).toMatchObject({ lineEnd: '\n', encoding: 'utf-8', bom: true });
    // An odd byte left over is half a UTF-16 code unit.
    const error = await rejection(() =>
      read(Buffer.concat([Buffer.from('service;account;amount\n201;a;1,00\n', 'utf16le'), Buffer.from([0x41])]), {
        encoding: 'utf-16le',
      }),
    );
    expect(error.message).toContain('the file is not utf-16le');
  });

  it('JSON lines take a decimal comma only with --decimal-comma', async () => {
    const line = '{"service":"201","account":"a","amount":"1 500,00"}\n';
    expect((await read(line, { decimalComma: true }, 'jsonl')).rows[0]!.amount).toBe('1500.00');
    await expect(read(line, {}, 'jsonl')).rejects.toThrow(/is not a plain decimal/);
  });
});

describe('the notation options', () => {
  it('--delimiter takes , ; and tab; anything else is a usage error', () => {
    expect([',', ';', 'tab', '\t', undefined].map(delimiterOption)).toEqual([',', ';', '\t', '\t', undefined]);
    expect(() => delimiterOption('|')).toThrow(UsageError);
  });

  it('--encoding takes a WHATWG label as its canonical name, and refuses an unknown one', () => {
    expect(encodingOption('cp1251')).toBe('windows-1251');
    expect(encodingOption('KOI8-R')).toBe('koi8-r');
    expect(() => encodingOption('windows-1252x')).toThrow(/is not an encoding this program knows/);
  });

  it('amounts change notation only: the same digits both ways', () => {
    expect(fromDecimalComma('0,01')).toBe('0.01');
    expect(fromDecimalComma('12 345 678,90')).toBe('12345678.90');
    expect(fromDecimalComma('1500.00')).toBe('1500.00');
    expect(toDecimalComma('1500.00')).toBe('1500,00');
    expect(toDecimalComma('1500')).toBe('1500');
    expect(fromDecimalComma(toDecimalComma('99999999999999.99'))).toBe('99999999999999.99');
  });
});
