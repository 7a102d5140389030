import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type ResultRow, ResultsWriter } from '../../src/commands/pay/bulk/results-file.js';
import { replyCharset } from '../../src/render/csv-charset.js';
import { paymentAcceptedKoi8r, utf16be, windows1251 } from '../helpers/legacy-charsets.js';

const encoded = (encoding: string, text: string, bom = false) => {
  const { encoder } = replyCharset(encoding, bom);
  const buffer = Buffer.alloc(text.length * encoder.maxBytesPerUnit);
  const length = encoder.encodeInto(text, buffer, 0);
  return length === undefined ? undefined : buffer.subarray(0, length);
};

describe('the charset a file goes back in', () => {
  it("is the order file's where Node can write it, with a BOM where a spreadsheet needs one", () => {
    const chosen = (encoding: string, bom: boolean) => {
      const charset = replyCharset(encoding, bom);
      return [charset.encoder.encoding, charset.bom];
    };
    expect(chosen('utf-8', false)).toEqual(['utf-8', false]);
    expect(chosen('utf-8', true)).toEqual(['utf-8', true]);
    expect(chosen('windows-1251', false)).toEqual(['windows-1251', false]);
    expect(chosen('koi8-r', false)).toEqual(['koi8-r', false]);
    expect(chosen('utf-16le', false)).toEqual(['utf-16le', true]);
    expect(chosen('utf-16be', false)).toEqual(['utf-16be', true]);
    // No encoder in Node for a multi-byte legacy charset: UTF-8 with a BOM keeps every character.
    expect(chosen('gb18030', false)).toEqual(['utf-8', true]);
  });

  it("writes a single-byte charset's own bytes, and nothing for a character it lacks", () => {
    expect(encoded('windows-1251', 'Счёт-8;1500,00')).toEqual(windows1251('Счёт-8;1500,00'));
    expect(encoded('koi8-r', paymentAcceptedKoi8r.text)).toEqual(paymentAcceptedKoi8r.bytes);
    expect(encoded('windows-1251', 'Төлем')).toBeUndefined();
    expect(encoded('windows-1251', 'ok ✅')).toBeUndefined();
    expect(encoded('utf-16be', 'Счёт')).toEqual(utf16be('Счёт'));
    expect(encoded('utf-16le', 'Счёт')).toEqual(Buffer.from('Счёт', 'utf16le'));
  });
});

const row = (line: number, message: string): ResultRow => ({
  line,
  key: `Заказ-${line}`,
  service: '201',
  account: 'Ёлка-7',
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount: '1500.00',
  transactionId: `${1_795_798_738_946_608_922n + BigInt(line)}`,
  paidAmount: '1500.00',
  paidInvoiceId: undefined,
  voucher: undefined,
  state: 'success',
  status: '10',
  message,
});

describe('a windows-1251 results file', () => {
  it('turns into UTF-8 with a BOM, the lines already on disk too, at the first cell windows-1251 cannot hold', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agentpay-results-'));
    const path = join(folder, 'orders.results.csv');
    const left: string[] = [];
    const notation = { delimiter: ';', decimalComma: true, encoding: 'windows-1251', bom: false } as const;
    const writer = new ResultsWriter(path, notation, (charset) => left.push(charset));
    writer.start();
    writer.append(row(2, 'Платёж принят'));
    await turn();
    expect(readFileSync(path).includes(windows1251('2;Заказ-2;201;Ёлка-7;KZT;;;1500,00;'))).toBe(true);
    writer.append(row(3, 'Төлем қабылданды ✅'));
    writer.append(row(4, 'Платёж принят'));
    writer.close();
    expect(left).toEqual(['windows-1251']);
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8', 3).split('\r\n')).toEqual([
      expect.stringMatching(/^line;key;service;account;/),
      '2;Заказ-2;201;Ёлка-7;KZT;;;1500,00;1795798738946608924;1500,00;;;success;10;Платёж принят',
      '3;Заказ-3;201;Ёлка-7;KZT;;;1500,00;1795798738946608925;1500,00;;;success;10;Төлем қабылданды ✅',
      '4;Заказ-4;201;Ёлка-7;KZT;;;1500,00;1795798738946608926;1500,00;;;success;10;Платёж принят',
      '',
    ]);
    expect(readdirSync(folder)).toEqual(['orders.results.csv']);
  });
});
