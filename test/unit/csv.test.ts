import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type CsvColumn, csvHeader, csvRow, spreadsheetSafe } from '../../src/render/csv.js';
import { seededRandom } from '../helpers/seeded-random.js';

interface Row {
  id: string;
  amount: string;
  name: string | null;
}

const columns: CsvColumn<Row>[] = [
  { header: 'TransactionID', kind: 'id', value: (row) => row.id },
  { header: 'Amount', kind: 'number', value: (row) => row.amount },
  { header: 'Voucher', kind: 'text', value: (row) => row.name },
];

describe('CSV, defined once', () => {
  it('quotes exactly the cells holding a comma, a quote or a line break (CR or LF alone too), so every line reads back as written', () => {
    const alphabet = ['a', 'б', ',', '"', '\n', ' ', "'", '=', ';', '\t', '🐉', '\r'];
    const random = seededRandom(7);
    const next = () => Math.floor(random() * 2 ** 31);
    const cellOf = () => Array.from({ length: next() % 6 }, () => alphabet[next() % alphabet.length]).join('');
    const idColumns = (count: number): CsvColumn<string[]>[] =>
      Array.from({ length: count }, (_, i) => ({ header: `c${i}`, kind: 'id', value: (row) => row[i] }));
    for (let round = 0; round < 2000; round++) {
      const cells = Array.from({ length: 1 + (next() % 4) }, cellOf);
      const written = csvRow(idColumns(cells.length), cells);
      expect(parse(written)).toEqual([cells]);
      const bare = cells.filter((cell) => !/[",\r\n]/.test(cell));
      for (const cell of bare) expect(written.split(/,|\r\n/)).toContain(cell);
    }
    // Before, csv-stringify left these bare: a cell with a line break then read back as two records.
    expect(csvRow(idColumns(3), ['a\rb', 'c\nd', 'say "hi"'])).toBe('"a\rb","c\nd","say ""hi"""\r\n');
  });

  it('quotes as RFC 4180 says, keeps Long ids and amounts as written, and reads back the same with a CSV parser', () => {
    const rows: Row[] = [
      { id: '9007199254740993', amount: '1500.00', name: 'Всадник, "дракон"\nи набор' },
      { id: '1', amount: '-0.50', name: null },
    ];
    const text = csvHeader(columns, { bom: true }) + rows.map((row) => csvRow(columns, row)).join('');
    expect(text.startsWith('\uFEFFTransactionID,Amount,Voucher\r\n')).toBe(true);
    expect(parse(text, { bom: true })).toEqual([
      ['TransactionID', 'Amount', 'Voucher'],
      ['9007199254740993', '1500.00', 'Всадник, "дракон"\nи набор'],
      ['1', '-0.50', ''],
    ]);
  });

  it('writes a text cell that could start a formula as text (OWASP), and leaves numbers and ids plain', () => {
    for (const dangerous of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(spreadsheetSafe(dangerous)).toBe(`'${dangerous}`);
    expect(spreadsheetSafe('Успех')).toBe('Успех');
    const [row] = parse(csvRow(columns, { id: '12', amount: '-5', name: '=1+1' }));
    expect(row).toEqual(['12', '-5', "'=1+1"]);
  });
});

describe('CSV in a spreadsheet notation (--delimiter, --decimal-comma)', () => {
  const rows: Row[] = [
    { id: '17', amount: '1500.50', name: 'Кино; 2 билета' },
    { id: '18', amount: '10.630', name: '=1+1' },
  ];
  it('semicolons between cells, a decimal comma in number cells only; a cell holding ";" quoted; read back to the same data', () => {
    const notation = { delimiter: ';', decimalComma: true } as const;
    const text = csvHeader(columns, notation) + rows.map((row) => csvRow(columns, row, notation)).join('');
    expect(text).toBe('TransactionID;Amount;Voucher\r\n17;1500,50;"Кино; 2 билета"\r\n18;10,630;\'=1+1\r\n');
    const back = parse(text, { delimiter: ';', columns: true }) as Record<string, string>[];
    expect(back.map((row) => row.Amount!.replace(',', '.'))).toEqual(['1500.50', '10.630']);
  });

  it('a tab delimiter with decimal points; a comma delimiter with a decimal comma quotes the amount', () => {
    expect(csvRow(columns, rows[0]!, { delimiter: '\t' })).toBe('17\t1500.50\tКино; 2 билета\r\n');
    expect(csvRow(columns, rows[0]!, { decimalComma: true })).toBe('17,"1500,50",Кино; 2 билета\r\n');
  });
});
