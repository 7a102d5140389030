import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { addDecimals, compareDecimals } from '../../src/protocol/money.js';
import { DecimalSum } from '../../src/registry/amounts.js';
import { builtInLayouts } from '../../src/registry/layout.js';
import { parseMapping } from '../../src/registry/mapping-file.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { rowsOf, tsv } from '../helpers/registry-files.js';
import { seededRandom } from '../helpers/seeded-random.js';

describe('reading a registry', () => {
  it('tsv: both date forms, a quote inside a cell is text, and a closing Total line that agrees', async () => {
    const text = '11\t2026-11-21\t09:00:00\tsay "hi"\t1500\n12\t21.11.2026\t09:01:00\tb\t0.50\n\nTotal: 2 1500.50\n';
    const { rows, sum } = await rowsOf(text, tsv);
    expect(rows).toEqual([
      { transactionId: '11', date: '2026-11-21', time: '09:00:00', account: 'say "hi"', amount: '1500', line: 1 },
      { transactionId: '12', date: '2026-11-21', time: '09:01:00', account: 'b', amount: '0.50', line: 2 },
    ]);
    expect(sum).toBe('1500.50');
  });

  it('a Total line that contradicts the rows, or a row after it, is refused naming its line', async () => {
    const rows = '11\t2026-11-21\t09:00:00\ta\t1500\n12\t2026-11-21\t09:01:00\tb\t0.50\n';
    await expect(rowsOf(`${rows}Total: 2 1500.00\n`, tsv)).rejects.toThrow(
      /line 3: the Total: line says 2 rows summing 1500.00, but the registry's rows are 2 summing 1500.50; the registry contradicts itself$/,
    );
    await expect(rowsOf(`${rows}Total: 3 1500.50\n`, tsv)).rejects.toThrow(/line 3: the Total: line says 3 rows/);
    await expect(rowsOf(`${rows}Total: 2 1500.50\n${rows}`, tsv)).rejects.toThrow(
      /line 4: a row after the Total: line \(line 3\)/,
    );
  });

  it('bytes that are not UTF-8 are refused naming the line and character, whether the pieces cut a character or not', async () => {
    const good = '11\t2026-11-21\t09:00:00\tСчёт\t1500\n';
    // Rows enough that the reading again in pieces of 16 KiB cuts two-byte characters in two.
    const many = good.repeat(1_000);
    const bad = Buffer.concat([Buffer.from(`${many}12\t2026-11-21\t09:00:00\tab`), Buffer.from([0xc3, 0x28])]);
    await expect(rowsOf(Buffer.concat([bad, Buffer.from('\t5\n')]), tsv)).rejects.toThrow(
      /line 1001: byte 0xC3 at character 26 is not UTF-8; nothing was compared$/,
    );
    await expect(rowsOf(Buffer.from([0xef, 0xbb, 0xbf, 0x31, 0xff]), tsv)).rejects.toThrow(
      /line 1: byte 0xFF at character 2 is not UTF-8/,
    );
  });

  it('a registry in another encoding with a byte that has no character in it is refused, not read as U+FFFD', async () => {
    const layout = parseMapping(
      'delimiter: ";"\nheader: false\nencoding: iso-8859-8\ndate: DD.MM.YYYY\ncolumns: { transactionId: 1, date: 2, account: 3, amount: 4 }\n',
      'kassa.yaml',
    );
    // ISO-8859-8 has no character at 0xBF (the WHATWG index).
    const text = Buffer.concat([Buffer.from('11;21.11.2026;acct'), Buffer.from([0xbf]), Buffer.from(';1500\n')]);
    await expect(rowsOf(text, layout)).rejects.toThrow(/is not iso-8859-8: some bytes have no character in it/);
  });

  it('a malformed row is refused naming its line and column', async () => {
    const good = '11\t2026-11-21\t09:00:00\ta\t1500\n';
    const failure = (text: string) =>
      rowsOf(text, tsv).then(
        () => 'read',
        (error: Error) => error.message.replace(/^registry \S+ /, ''),
      );
    expect(await failure(`${good}12\t2026-11-31\t09:00:00\tb\t5\n`)).toBe(
      'line 2, column 2 (date): "2026-11-31" is not a date (YYYY-MM-DD or DD.MM.YYYY)',
    );
    expect(await failure(`${good}${good}12\t2026-11-21\t09:00:00\tb\t5,00\n`)).toBe(
      'line 3, column 5 (amount): "5,00" is not an amount such as 1500.00',
    );
    expect(await failure(`${good}12\t2026-11-21\t09:00:00\tb\n`)).toBe(
      'line 2, column 5 (amount): missing; the row has 4 columns',
    );
    expect(await failure(`${good}12\t2026-11-21\t9 am\tb\t5\n`)).toBe(
      'line 2, column 3 (time): "9 am" is not a time (HH:mm:ss)',
    );
  });

  it('a TransactionID that is not a positive Long, or is written with a leading zero, is refused naming its line and column', async () => {
    const good = '1\t2026-11-21\t09:00:00\ta\t1500\n';
    const failure = (id: string) =>
      rowsOf(`${good}${id}\t2026-11-21\t09:00:00\tb\t5\n`, tsv).then(
        () => 'read',
        (error: Error) => error.message.replace(/^registry \S+ /, ''),
      );
    expect(await failure('00001')).toBe(
      'line 2, column 1 (TransactionID): "00001" is written with a leading zero: a TransactionID is written without (1)',
    );
    expect(await failure('9223372036854775808')).toBe(
      'line 2, column 1 (TransactionID): "9223372036854775808" is beyond a signed 64-bit Long (at most 9223372036854775807): not a TransactionID',
    );
    expect(await failure('99999999999999999999')).toMatch(/is beyond a signed 64-bit Long/);
    expect(await failure('0')).toBe(
      'line 2, column 1 (TransactionID): "0" is not a TransactionID: 0 names no transaction',
    );
    for (const id of ['-5', '+5', '1.0', '1e3', '12a', '', 'ИД7'])
      expect(await failure(id)).toMatch(/^line 2, column 1 \(TransactionID\): .* is not a TransactionID \(digits only/);
    // A cell gone wrong is quoted short, with its length.
    expect(await failure('7'.repeat(100_000))).toMatch(
      /^line 2, column 1 \(TransactionID\): "7{60}"\.\.\. \(100000 characters\) is beyond/,
    );
    expect(await failure('9223372036854775807')).toBe('read');
  });

  it('csv: columns found by their header names in any order, Time left out; an unclosed quote names its line', async () => {
    const csv = builtInLayouts.csv!;
    const { rows } = await rowsOf('\uFEFFAmount,Account,TransactionID,Date\r\n"1,5",x,1,2026-11-21\r\n', {
      ...csv,
      decimal: 'comma',
    });
    expect(rows).toEqual([
      { transactionId: '1', date: '2026-11-21', time: undefined, account: 'x', amount: '1.5', line: 2 },
    ]);
    await expect(rowsOf('TransactionID,Date,Account\r\n', csv)).rejects.toThrow(
      /line 1: the header has no column "Amount" \(the amount\); it has "TransactionID", "Date", "Account"$/,
    );
    await expect(rowsOf('TransactionID,Date,Account,Amount\r\n1,2026-11-21,"x,5\r\n', csv)).rejects.toThrow(
      /line \d+.*Quote Not Closed/,
    );
  });

  it('a mapping: windows-1251, a title line to skip, Russian header names, decimal commas and an Итого line', async () => {
    const layout = parseMapping(
      'delimiter: ";"\nheader: true\nskipLines: 1\nencoding: windows-1251\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: Номер, date: Дата, account: Счёт, amount: Сумма }\ntotal: "Итого:"\n',
      'm.yaml',
    );
    const text =
      'Реестр платежей\r\nНомер;Дата;Счёт;Сумма\r\n21;21.11.2026;Иванов Пётр;1 500,00\r\n22;21.11.2026;ёлка;0,50\r\nИтого:;2;1 500,50\r\n';
    const { rows, sum } = await rowsOf(windows1251(text), layout);
    expect(rows.map(({ transactionId, account, amount, line }) => ({ transactionId, account, amount, line }))).toEqual([
      { transactionId: '21', account: 'Иванов Пётр', amount: '1500.00', line: 3 },
      { transactionId: '22', account: 'ёлка', amount: '0.50', line: 4 },
    ]);
    expect(sum).toBe('1500.50');
  });
});

describe('reading a registry fast: split by hand until the first quote, csv-parse from there', () => {
  const csv = builtInLayouts.csv!;
  const filler = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) => `${from + i},2026-11-21,acct-${from + i},1.00\r\n`).join('');

  it('a quoted cell (with a line break) far past the first read: every row, and its line, as csv-parse alone would give them', async () => {
    // ~340 KB of plain rows: the quote comes after the first 256 KB read.
    const text = `TransactionID,Date,Account,Amount\r\n${filler(9000, 1)}90001,2026-11-21,"Smith, ""J""\nflat 2",7.50\r\n${filler(3, 90002)}`;
    const { rows, sum } = await rowsOf(text, csv);
    expect(rows).toHaveLength(9004);
    expect(rows[0]).toEqual({
      transactionId: '1',
      date: '2026-11-21',
      time: undefined,
      account: 'acct-1',
      amount: '1.00',
      line: 2,
    });
    expect(rows[9000]).toEqual({
      transactionId: '90001',
      date: '2026-11-21',
      time: undefined,
      account: 'Smith, "J"\nflat 2',
      amount: '7.50',
      line: 9003,
    });
    expect(rows[9003]).toMatchObject({ transactionId: '90004', line: 9006 });
    expect(sum).toBe('9010.50');
    // The same file through csv-parse alone: the same cells, the same lines (even where
    // csv-parse counts a quoted "\r\n" as two lines).
    for (const inCell of ['\n', '\r\n']) {
      const file = text.replace('""J""\nflat', `""J""${inCell}flat`);
      const alone = parseCsv(file, {
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        on_record: (record: string[], { lines }) => [...record, String(lines)],
      });
      const fast = (await rowsOf(file, csv)).rows.map(({ transactionId, date, account, amount, line }) => [
        transactionId,
        date,
        account,
        amount,
        String(line),
      ]);
      expect(fast).toEqual(alone.slice(1));
    }
  });

  it('a malformed row after the switch to csv-parse is named by its line in the whole file', async () => {
    const text = `TransactionID,Date,Account,Amount\r\n${filler(9000, 1)}90001,2026-11-21,"unclosed,7.50\r\n`;
    await expect(rowsOf(text, csv)).rejects.toThrow(
      /line 9003, column 3: Quote Not Closed: the parsing is finished with an opening quote at line 9003$/,
    );
    const bad = `TransactionID,Date,Account,Amount\r\n${filler(9000, 1)}"90001",2026-11-21,x,7.5O\r\n`;
    await expect(rowsOf(bad, csv)).rejects.toThrow(/line 9002, column 4 \(amount\): "7.5O" is not an amount/);
  });

  it('lines ended by "\\n", "\\r\\n" or a lone "\\r", a byte order mark, skipped title lines, empty lines', async () => {
    const layout = { ...tsv, skipLines: 2, total: undefined };
    for (const [text, lines] of [
      ['\uFEFFtitle\nprovider\n1\t2026-11-21\t\ta\t1\n\n2\t2026-11-21\t\tb\t2\n', [3, 5]],
      ['title\r\nprovider\r\n1\t2026-11-21\t\ta\t1\r\n\r\n2\t2026-11-21\t\tb\t2', [3, 5]],
      ['title\rprovider\r1\t2026-11-21\t\ta\t1\r\r2\t2026-11-21\t\tb\t2\r', [3, 5]],
    ] as const) {
      const { rows } = await rowsOf(text, layout);
      expect(rows.map(({ transactionId, account, line }) => [transactionId, account, line])).toEqual([
        ['1', 'a', lines[0]],
        ['2', 'b', lines[1]],
      ]);
    }
  });

  it('sums exactly, as addDecimals does, amounts of any size and scale', () => {
    const random = seededRandom(11);
    const amounts = Array.from({ length: 5000 }, (_, i) => {
      const whole = String(Math.floor(random() * 10 ** (1 + (i % 14))));
      const scale = i % 7 === 0 ? 0 : 1 + (i % 4);
      return scale === 0 ? whole : `${whole}.${String(Math.floor(random() * 10 ** scale)).padStart(scale, '0')}`;
    });
    amounts.push('123456789012345678901234.5', '0.000001', '9007199254740993', '999999999999999.99');
    const sum = new DecimalSum();
    let expected = '0';
    for (const amount of amounts) {
      sum.add(amount);
      expected = addDecimals(expected, amount);
    }
    expect(compareDecimals(sum.value(), expected)).toBe(0);
  });
});
