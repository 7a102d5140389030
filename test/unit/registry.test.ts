import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { PaymentRow } from '../../src/ledger/ledger.js';
import { addDecimals, compareDecimals } from '../../src/protocol/money.js';
import { DecimalSum, readAmount } from '../../src/registry/amounts.js';
import { RegistryComparison } from '../../src/registry/compare.js';
import { compileDatePattern, readDate } from '../../src/registry/dates.js';
import { builtInLayouts, type RegistryLayout } from '../../src/registry/layout.js';
import { loadRegistryIndex } from '../../src/registry/load-index.js';
import { parseMapping } from '../../src/registry/mapping-file.js';
import { type RegistryRow, readRegistry } from '../../src/registry/read.js';
import { RegistryIndex } from '../../src/registry/registry-index.js';
import { registryTableLines } from '../../src/render/registry.js';
import { plainStyle } from '../../src/render/style.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { thrown } from '../helpers/thrown.js';

const directory = mkdtempSync(join(tmpdir(), 'agentpay-registry-'));
let files = 0;
const fileOf = (content: string | Buffer) => {
  const path = join(directory, `registry-${files++}`);
  writeFileSync(path, content);
  return path;
};

async function rowsOf(content: string | Buffer, layout: RegistryLayout): Promise<{ rows: RegistryRow[]; sum: string }> {
  const rows: RegistryRow[] = [];
  const { sum } = await readRegistry(fileOf(content), layout, (row) => rows.push(row));
  return { rows, sum };
}

const tsv = builtInLayouts.tsv!;

describe('registry cells', () => {
  it('amounts as exact decimals, with a decimal comma and spaces between thousands where the layout says', () => {
    expect(readAmount('1500.00', 'point')).toBe('1500.00');
    expect(readAmount('1 500,50', 'comma')).toBe('1500.50');
    expect(readAmount('1\u00a0500,50', 'comma')).toBe('1500.50');
    for (const bad of ['1,500.00', '15OO', '-5', '1e3', '']) expect(readAmount(bad, 'point')).toBeUndefined();
    expect(readAmount('1500.00', 'comma')).toBeUndefined();
  });

  it('dates by pattern, kept as YYYY-MM-DD; a day that does not exist is refused', () => {
    const patterns = ['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY HH:mm:ss'].map((text) => compileDatePattern(text)!);
    expect(readDate('2026-11-21', patterns)).toBe('2026-11-21');
    expect(readDate('21.11.2026', patterns)).toBe('2026-11-21');
    expect(readDate('21/11/2026 23:59:59', patterns)).toBe('2026-11-21');
    for (const bad of ['31.11.2026', '2026-13-01', '21/11/2026 24:00:00', '21-11-2026']) expect(readDate(bad, patterns)).toBeUndefined();
    expect(compileDatePattern('DD.MM')).toBeUndefined();
  });
});

describe('registry mapping files', () => {
  it('reads a YAML mapping (defaults filled in) and refuses mistakes naming the key and what was expected', () => {
    const mapping = 'delimiter: tab\nheader: false\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: 1, date: 2, account: 3, amount: 4 }\n';
    expect(parseMapping(mapping, 'm.yaml')).toEqual({
      name: 'm.yaml',
      delimiter: '\t',
      quote: '"',
      header: false,
      skipLines: 0,
      encoding: 'utf-8',
      decimal: 'comma',
      dates: ['DD.MM.YYYY'],
      columns: { transactionId: 1, date: 2, account: 3, amount: 4 },
    });
    const refusal = (text: string) => thrown(() => parseMapping(text, 'm.yaml')).message;
    expect(refusal(mapping.replace('decimal: comma', 'decimal: dot'))).toMatch(/^registry mapping m\.yaml: decimal: .*"point"/);
    expect(refusal(`${mapping}encoding: klingon\n`)).toBe('registry mapping m.yaml: encoding: a character set TextDecoder knows, such as utf-8 or windows-1251');
    expect(refusal(mapping.replace('amount: 4', 'amount: 0'))).toBe('registry mapping m.yaml: columns.amount: a column number counts from 1');
    expect(refusal(mapping.replace('amount: 4', 'amount: Сумма'))).toBe('registry mapping m.yaml: columns: without a header row, columns are numbers counted from 1');
    expect(refusal(mapping.replace('date: DD.MM.YYYY', 'date: MM.YYYY'))).toMatch(/^registry mapping m\.yaml: date: a date pattern with YYYY, MM and DD/);
    expect(refusal(mapping.replace('header: false', 'headers: false'))).toMatch(/^registry mapping m\.yaml: .*headers/);
    expect(refusal(mapping.replace('columns:', 'columns: 5 #'))).toMatch(/^registry mapping m\.yaml: columns: /);
  });

  it('the built-in layouts are what a mapping file of the same keys gives', () => {
    const csvMapping =
      'delimiter: ","\nheader: true\ndate: [YYYY-MM-DD, DD.MM.YYYY]\ncolumns: { transactionId: TransactionID, date: Date, time: Time, account: Account, amount: Amount }\n';
    expect(parseMapping(csvMapping, 'csv')).toEqual(builtInLayouts.csv);
    const tsvMapping =
      'delimiter: tab\nquote: false\nheader: false\ndate: [YYYY-MM-DD, DD.MM.YYYY]\ncolumns: { transactionId: 1, date: 2, time: 3, account: 4, amount: 5 }\ntotal: "Total:"\n';
    expect(parseMapping(tsvMapping, 'tsv')).toEqual(tsv);
  });
});

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
    await expect(rowsOf(`${rows}Total: 2 1500.50\n${rows}`, tsv)).rejects.toThrow(/line 4: a row after the Total: line \(line 3\)/);
  });

  it('a malformed row is refused naming its line and column', async () => {
    const good = '11\t2026-11-21\t09:00:00\ta\t1500\n';
    const failure = (text: string) =>
      rowsOf(text, tsv).then(
        () => 'read',
        (error: Error) => error.message.replace(/^registry \S+ /, ''),
      );
    expect(await failure(`${good}12\t2026-11-31\t09:00:00\tb\t5\n`)).toBe('line 2, column 2 (date): "2026-11-31" is not a date (YYYY-MM-DD or DD.MM.YYYY)');
    expect(await failure(`${good}${good}12\t2026-11-21\t09:00:00\tb\t5,00\n`)).toBe('line 3, column 5 (amount): "5,00" is not an amount such as 1500.00');
    expect(await failure(`${good}12\t2026-11-21\t09:00:00\tb\n`)).toBe('line 2, column 5 (amount): missing; the row has 4 columns');
    expect(await failure(`${good}12\t2026-11-21\t9 am\tb\t5\n`)).toBe('line 2, column 3 (time): "9 am" is not a time (HH:mm:ss)');
  });

  it('a TransactionID that is not a positive Long, or is written with a leading zero, is refused naming its line and column', async () => {
    const good = '1\t2026-11-21\t09:00:00\ta\t1500\n';
    const failure = (id: string) =>
      rowsOf(`${good}${id}\t2026-11-21\t09:00:00\tb\t5\n`, tsv).then(
        () => 'read',
        (error: Error) => error.message.replace(/^registry \S+ /, ''),
      );
    expect(await failure('00001')).toBe('line 2, column 1 (TransactionID): "00001" is written with a leading zero: a TransactionID is written without (1)');
    expect(await failure('9223372036854775808')).toBe(
      'line 2, column 1 (TransactionID): "9223372036854775808" is beyond a signed 64-bit Long (at most 9223372036854775807): not a TransactionID',
    );
    expect(await failure('99999999999999999999')).toMatch(/is beyond a signed 64-bit Long/);
    expect(await failure('0')).toBe('line 2, column 1 (TransactionID): "0" is not a TransactionID: 0 names no transaction');
    for (const id of ['-5', '+5', '1.0', '1e3', '12a', '', 'ИД7'])
      expect(await failure(id)).toMatch(/^line 2, column 1 \(TransactionID\): .* is not a TransactionID \(digits only/);
    // A cell gone wrong is quoted short, with its length.
    expect(await failure('7'.repeat(100_000))).toMatch(/^line 2, column 1 \(TransactionID\): "7{60}"\.\.\. \(100000 characters\) is beyond/);
    expect(await failure('9223372036854775807')).toBe('read');
  });

  it('csv: columns found by their header names in any order, Time left out; an unclosed quote names its line', async () => {
    const csv = builtInLayouts.csv!;
    const { rows } = await rowsOf('\uFEFFAmount,Account,TransactionID,Date\r\n"1,5",x,1,2026-11-21\r\n', { ...csv, decimal: 'comma' });
    expect(rows).toEqual([{ transactionId: '1', date: '2026-11-21', time: undefined, account: 'x', amount: '1.5', line: 2 }]);
    await expect(rowsOf('TransactionID,Date,Account\r\n', csv)).rejects.toThrow(
      /line 1: the header has no column "Amount" \(the amount\); it has "TransactionID", "Date", "Account"$/,
    );
    await expect(rowsOf('TransactionID,Date,Account,Amount\r\n1,2026-11-21,"x,5\r\n', csv)).rejects.toThrow(/line \d+.*Quote Not Closed/);
  });

  it('a mapping: windows-1251, a title line to skip, Russian header names, decimal commas and an Итого line', async () => {
    const layout = parseMapping(
      'delimiter: ";"\nheader: true\nskipLines: 1\nencoding: windows-1251\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: Номер, date: Дата, account: Счёт, amount: Сумма }\ntotal: "Итого:"\n',
      'm.yaml',
    );
    const text = 'Реестр платежей\r\nНомер;Дата;Счёт;Сумма\r\n21;21.11.2026;Иванов Пётр;1 500,00\r\n22;21.11.2026;ёлка;0,50\r\nИтого:;2;1 500,50\r\n';
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
  const filler = (count: number, from: number) => Array.from({ length: count }, (_, i) => `${from + i},2026-11-21,acct-${from + i},1.00\r\n`).join('');

  it('a quoted cell (with a line break) far past the first read: every row, and its line, as csv-parse alone would give them', async () => {
    // ~340 KB of plain rows: the quote comes after the first 256 KB read.
    const text = `TransactionID,Date,Account,Amount\r\n${filler(9000, 1)}90001,2026-11-21,"Smith, ""J""\nflat 2",7.50\r\n${filler(3, 90002)}`;
    const { rows, sum } = await rowsOf(text, csv);
    expect(rows).toHaveLength(9004);
    expect(rows[0]).toEqual({ transactionId: '1', date: '2026-11-21', time: undefined, account: 'acct-1', amount: '1.00', line: 2 });
    expect(rows[9000]).toEqual({ transactionId: '90001', date: '2026-11-21', time: undefined, account: 'Smith, "J"\nflat 2', amount: '7.50', line: 9003 });
    expect(rows[9003]).toMatchObject({ transactionId: '90004', line: 9006 });
    expect(sum).toBe('9010.50');
    // The same file through csv-parse alone: the same cells, the same lines (even where
    // csv-parse counts a quoted "\r\n" as two lines).
    for (const inCell of ['\n', '\r\n']) {
      const file = text.replace('""J""\nflat', `""J""${inCell}flat`);
      const alone = parseCsv(file, { bom: true, relax_column_count: true, skip_empty_lines: true, on_record: (record: string[], { lines }) => [...record, String(lines)] });
      const fast = (await rowsOf(file, csv)).rows.map(({ transactionId, date, account, amount, line }) => [transactionId, date, account, amount, String(line)]);
      expect(fast).toEqual(alone.slice(1));
    }
  });

  it('a malformed row after the switch to csv-parse is named by its line in the whole file', async () => {
    const text = `TransactionID,Date,Account,Amount\r\n${filler(9000, 1)}90001,2026-11-21,"unclosed,7.50\r\n`;
    await expect(rowsOf(text, csv)).rejects.toThrow(/line 9003, column 3: Quote Not Closed: the parsing is finished with an opening quote at line 9003$/);
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

describe('comparing a registry with the ledger', () => {
  const day = '2026-11-21';
  const at = new Date(2026, 10, 21, 12).toISOString();
  const entry = (id: string, state: 'success' | 'failed' | 'pending' | 'unknown' | undefined, amount = '499.00', when = at): PaymentRow => ({
    transactionId: id,
    account: `acct-${id}`,
    amount,
    at: when,
    state: state ?? 'unknown',
  });
  const row = (transactionId: string, amount: string, line: number): RegistryRow => ({ transactionId, date: day, time: undefined, account: `acct-${transactionId}`, amount, line });

  it('sorts every case into its list, amounts compared and summed as exact decimals', () => {
    const index = new RegistryIndex('r.tsv');
    [row('1', '499', 1), row('2', '500.00', 2), row('3', '499.00', 3), row('4', '499.00', 4), row('9', '1.50', 5), row('7', '499.00', 6)].forEach((r) => index.add(r));
    const comparison = new RegistryComparison(index, new Set([day]));
    const nextDay = new Date(2026, 10, 22, 0, 0, 5).toISOString();
    const found = [
      entry('1', 'success'), // agrees: 499 = 499.00
      entry('2', 'success'), // different amount
      entry('3', 'failed'), // the provider counts a payment the ledger says failed
      entry('4', undefined), // open, listed as paid
      entry('5', 'success', '10.25'), // only in the ledger
      entry('6', 'failed'), // failed and not listed: agrees
      entry('8', 'pending', '3'), // open, not listed: only in the ledger
      entry('7', 'success', '499.00', nextDay), // another day, but listed: matched
      entry('10', 'success', '1', nextDay), // another day, not listed: not compared
    ].map((e) => comparison.visit(e));
    expect(found.map((finding) => finding && [finding.list, finding.transactionId, finding.ledgerState])).toEqual([
      undefined,
      ['different', '2', 'success'],
      ['different', '3', 'failed'],
      ['different', '4', 'unknown'],
      ['only-in-ledger', '5', 'success'],
      undefined,
      ['only-in-ledger', '8', 'pending'],
      undefined,
      undefined,
    ]);
    const left = [...comparison.onlyInRegistry()];
    expect(left).toEqual([
      { list: 'only-in-registry', transactionId: '9', date: day, account: 'acct-9', registryAmount: '1.50', ledgerAmount: null, registryState: 'paid', ledgerState: null },
    ]);
    expect(comparison.agreed).toBe(2);
    expect(comparison.tallies).toEqual({
      'only-in-registry': { count: 1, registrySum: '1.50', ledgerSum: '0' },
      'only-in-ledger': { count: 2, registrySum: '0', ledgerSum: '13.25' },
      different: { count: 3, registrySum: '1498.00', ledgerSum: '1497.00' },
    });
    expect(registryTableLines([left[0]!, found[1]!], plainStyle)).toMatchInlineSnapshot(`
      [
        "+----------------------+---------------+------------+---------+-----------------+---------------+----------------+--------------+",
        "| List                 | TransactionID | Date       | Account | Registry amount | Ledger amount | Registry state | Ledger state |",
        "| only in the registry | 9             | 2026-11-21 | acct-9  | 1.50            | -             | paid           | -            |",
        "| different            | 2             | 2026-11-21 | acct-2  | 500.00          | 499.00        | paid           | success      |",
        "+----------------------+---------------+------------+---------+-----------------+---------------+----------------+--------------+",
      ]
    `);
  });

  it('rows no payment matched are listed with their TransactionIDs exactly as written (kept packed, not as strings)', () => {
    const index = new RegistryIndex('r.tsv');
    const ids = ['012', '12', '0', '9223372036854775807', '12345678901234567890', '123456789012345678901', 'ab-1', 'ИД7'];
    ids.forEach((id, n) => index.add(row(id, '1.00', n + 1)));
    const comparison = new RegistryComparison(index, new Set([day]));
    comparison.visit(entry('12', 'success', '1.00'));
    expect([...comparison.onlyInRegistry()].map((finding) => finding.transactionId)).toEqual(ids.filter((id) => id !== '12'));
  });

  it('rows no payment matched give back their accounts and amounts exactly (kept as bytes, not strings)', () => {
    const index = new RegistryIndex('r.tsv');
    const rows = [
      { ...row('1', '1500', 1), account: 'Иванов Пётр' },
      { ...row('2', '0.50', 2), account: 'a b\t"c"' },
      { ...row('3', '123456789012345678901234.567', 3), account: '' },
      { ...row('4', '7', 4), account: '😀 ёлка', date: '2026-11-22' },
      { ...row('5', '8.00', 5), account: 'taken' },
      { ...row('6', '9', 6), account: `${'x'.repeat(300)}ё` },
      { ...row('7', '9', 7), account: `${'x'.repeat(299)}ё` },
      { ...row('8', '9', 8), account: 'ё'.repeat(200) },
    ];
    rows.forEach((r) => index.add(r));
    expect(index.days).toEqual(new Set([day, '2026-11-22']));
    expect(index.take('5')).toEqual({ date: day, amount: '8.00' });
    expect(index.take('5')).toBeUndefined();
    expect([...index.left()].map(({ transactionId, date, account, registryAmount }) => [transactionId, date, account, registryAmount])).toEqual(
      rows.filter((r) => r.transactionId !== '5').map((r) => [r.transactionId, r.date, r.account, r.amount]),
    );
  });

  it('a TransactionID listed twice is a registry that contradicts itself, both lines named (the first read again)', async () => {
    const path = fileOf(`7\t${day}\t\ta\t1.00\n1\t${day}\t\ta\t5\n\n2\t${day}\t\ta\t5\n1\t${day}\t\ta\t5\n`);
    const failure = await loadRegistryIndex(path, tsv).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toBe(`registry ${path} line 5: TransactionID 1 is listed again (first on line 2); the registry contradicts itself`);
  });
});
