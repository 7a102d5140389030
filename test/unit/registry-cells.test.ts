import { describe, expect, it } from 'vitest';
import { readAmount } from '../../src/registry/amounts.js';
import { compileDatePattern, readDate } from '../../src/registry/dates.js';
import { builtInLayouts } from '../../src/registry/layout.js';
import { parseMapping } from '../../src/registry/mapping-file.js';
import { tsv } from '../helpers/registry-files.js';
import { thrown } from '../helpers/thrown.js';

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
    for (const bad of ['31.11.2026', '2026-13-01', '21/11/2026 24:00:00', '21-11-2026'])
      expect(readDate(bad, patterns)).toBeUndefined();
    expect(compileDatePattern('DD.MM')).toBeUndefined();
  });
});

describe('registry mapping files', () => {
  it('reads a YAML mapping (defaults filled in) and refuses mistakes naming the key and what was expected', () => {
    const mapping =
      'delimiter: tab\nheader: false\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: 1, date: 2, account: 3, amount: 4 }\n';
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
    expect(refusal(mapping.replace('decimal: comma', 'decimal: dot'))).toMatch(
      /^registry mapping m\.yaml: decimal: .*"point"/,
    );
    expect(refusal(`${mapping}encoding: klingon\n`)).toBe(
      'registry mapping m.yaml: encoding: a character set TextDecoder knows, such as utf-8 or windows-1251',
    );
    expect(refusal(mapping.replace('amount: 4', 'amount: 0'))).toBe(
      'registry mapping m.yaml: columns.amount: a column number counts from 1',
    );
    expect(refusal(mapping.replace('amount: 4', 'amount: Сумма'))).toBe(
      'registry mapping m.yaml: columns: without a header row, columns are numbers counted from 1',
    );
    expect(refusal(mapping.replace('date: DD.MM.YYYY', 'date: MM.YYYY'))).toMatch(
      /^registry mapping m\.yaml: date: a date pattern with YYYY, MM and DD/,
    );
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
