import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { reportRange } from '../../src/commands/report/range.js';
import {
  parseDimensions,
  type ReportPayment,
  ReportTally,
  UnsummableAmountError,
} from '../../src/commands/report/tally.js';
import { csvHeader, csvRow } from '../../src/render/csv.js';
import { type ReportLines, reportCsvColumns, reportJsonLine, reportLines } from '../../src/render/report.js';
import { reportTable } from '../../src/render/report-table.js';
import { plainStyle } from '../../src/render/style.js';

let nextId = 1;
const payment = (fields: Partial<ReportPayment>): ReportPayment => ({
  transactionId: String(nextId++),
  service: '201',
  operator: 'ann',
  approvedBy: null,
  currency: 'KZT',
  amount: '150.00',
  state: 'success',
  ...fields,
});

/** A few payments in two currencies, one refused, one with no answer, one to a far service. */
const day: ReportPayment[] = [
  payment({ amount: '150.00' }),
  payment({ amount: '0.5' }),
  payment({ service: '102', currency: 'USD', amount: '10.630', operator: 'bob' }),
  payment({ service: '102', currency: 'USD', amount: '26.575', operator: 'bob' }),
  payment({ amount: '100', state: 'failed' }),
  payment({ service: '1000', amount: '9990.00', state: 'unknown', operator: null }),
  payment({ service: '101', amount: '0.1' }),
  payment({ service: '101', amount: '0.2' }),
];

function tallied(dimensions: ReturnType<typeof parseDimensions>, payments = day): ReportLines {
  if (typeof dimensions === 'string') throw new Error(dimensions);
  const tally = new ReportTally(dimensions);
  for (const one of payments) tally.add(one);
  return { groups: tally.results(), totals: tally.totals(), dimensions };
}

describe('report: grouping and exact sums', () => {
  it('groups by service and state by default, currency always in the key, in report order; exact sums', () => {
    const report = tallied(parseDimensions([]));
    expect(report.dimensions).toEqual(['service', 'state']);
    expect(
      report.groups.map(({ keys, currency, count, sum }) => [keys.service, keys.state, currency, count, sum]),
    ).toEqual([
      ['101', 'success', 'KZT', 2, '0.3'],
      ['102', 'success', 'USD', 2, '37.205'],
      ['201', 'success', 'KZT', 2, '150.50'],
      ['201', 'failed', 'KZT', 1, '100'],
      ['1000', 'unknown', 'KZT', 1, '9990.00'],
    ]);
    // One total per currency, never adding two currencies.
    expect(report.totals).toEqual([
      { currency: 'KZT', count: 6, sum: '10240.80' },
      { currency: 'USD', count: 2, sum: '37.205' },
    ]);
  });

  it('--by repeated or comma-separated, in the order named, duplicates once; an unknown word is returned to be named', () => {
    expect(parseDimensions(['operator,state', 'operator'])).toEqual(['operator', 'state']);
    expect(parseDimensions(['currency'])).toEqual(['currency']);
    expect(parseDimensions(['service', 'colour'])).toBe('colour');
    const byOperator = tallied(parseDimensions(['operator']));
    expect(byOperator.groups.map(({ keys, currency, count, sum }) => [keys.operator, currency, count, sum])).toEqual([
      [null, 'KZT', 1, '9990.00'],
      ['ann', 'KZT', 5, '250.80'],
      ['bob', 'USD', 2, '37.205'],
    ]);
  });

  it('keeps only the groups: the same one sums thousands of payments exactly (no floating point)', () => {
    const many = Array.from({ length: 10_000 }, () => payment({ amount: '0.10' }));
    const report = tallied(parseDimensions(['currency']), many);
    expect(report.groups).toEqual([{ keys: { currency: 'KZT' }, currency: 'KZT', count: 10_000, sum: '1000.00' }]);
  });

  it('refuses to sum an amount that is not a plain decimal (exit 6), naming the transaction', () => {
    const tally = new ReportTally(['service']);
    let thrown: unknown;
    try {
      tally.add(payment({ transactionId: '77', amount: '1e3' }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnsummableAmountError);
    expect((thrown as UnsummableAmountError).exitCode).toBe(6);
    expect((thrown as Error).message).toContain('transaction 77 has the amount "1e3"');
  });
});

describe('report: the range', () => {
  // A local instant: the range is in this machine's time zone, whatever it is.
  const now = new Date(2026, 10, 23, 10, 30);

  it('is yesterday by default, a local day for --date (today, yesterday too), midnight to midnight', () => {
    expect(reportRange({}, now)).toEqual({
      from: new Date(2026, 10, 22),
      until: new Date(2026, 10, 23),
      day: '2026-11-22',
    });
    expect(reportRange({ date: '2026-03-01' }, now)).toEqual({
      from: new Date(2026, 2, 1),
      until: new Date(2026, 2, 2),
      day: '2026-03-01',
    });
    expect(reportRange({ date: 'today' }, now).day).toBe('2026-11-23');
    expect(reportRange({ date: 'yesterday' }, new Date(2026, 0, 1, 0, 5)).day).toBe('2025-12-31');
    expect(reportRange({ date: '01.03.2026' }, now)).toEqual({
      from: new Date(2026, 2, 1),
      until: new Date(2026, 2, 2),
      day: '2026-03-01',
    });
  });

  it('--since and --until as history reads them; --until defaults to now', () => {
    expect(reportRange({ since: '2026-11-20', until: '2026-11-22' }, now)).toEqual({
      from: new Date(2026, 10, 20),
      until: new Date(2026, 10, 22),
    });
    expect(reportRange({ since: '12h' }, now)).toEqual({ from: new Date(now.getTime() - 12 * 3_600_000), until: now });
    expect(reportRange({ until: '2026-11-22' }, now)).toEqual({ from: null, until: new Date(2026, 10, 22) });
    expect(reportRange({ since: '20.11.2026', until: '22.11.2026' }, now)).toEqual({
      from: new Date(2026, 10, 20),
      until: new Date(2026, 10, 22),
    });
  });

  it('refuses a day that does not exist, --date with --since, an empty range, a bad --until (exit 2, named)', () => {
    const usage = (options: Parameters<typeof reportRange>[0]) => {
      try {
        reportRange(options, now);
      } catch (error) {
        return [(error as { exitCode: number }).exitCode, (error as Error).message];
      }
      return undefined;
    };
    expect(usage({ date: '2026-02-30' })).toEqual([2, '--date "2026-02-30" is not a day']);
    expect(usage({ date: '30.02.2026' })).toEqual([2, '--date "30.02.2026" is not a day']);
    expect(usage({ date: '2.11.2026' })).toEqual([2, '--date "2.11.2026" is not a day']);
    expect(usage({ since: '31.11.2026' })).toEqual([2, '--since "31.11.2026" is not a date']);
    expect(usage({ date: '2026-11-22', since: '1h' })?.[1]).toContain('not both');
    expect(usage({ since: '2026-11-22', until: '2026-11-21' })?.[1]).toContain('is not before --until');
    expect(usage({ since: '1h', until: 'soon' })).toEqual([2, '--until "soon" is not a date']);
  });
});

describe('report: renderers', () => {
  const report = tallied(parseDimensions([]));

  it('a table: groups, then a Total row per currency', () => {
    expect(reportTable(report, plainStyle)).toMatchInlineSnapshot(`
      "+---------+---------+----------+-------+----------+
      | Service | State   | Currency | Count |      Sum |
      | 101     | success | KZT      |     2 |      0.3 |
      | 102     | success | USD      |     2 |   37.205 |
      | 201     | success | KZT      |     2 |   150.50 |
      | 201     | failed  | KZT      |     1 |      100 |
      | 1000    | unknown | KZT      |     1 |  9990.00 |
      | Total   |         | KZT      |     6 | 10240.80 |
      | Total   |         | USD      |     2 |   37.205 |
      +---------+---------+----------+-------+----------+"
    `);
  });

  it('CSV: header, groups, totals, parsed back the same; an operator that could start a formula is text', () => {
    const columns = reportCsvColumns(['operator', 'state']);
    const sneaky = tallied(
      ['operator', 'state'],
      [payment({ operator: '=1+1', amount: '5' }), payment({ operator: 'ann', currency: 'USD', amount: '1.50' })],
    );
    const text =
      csvHeader(columns, { bom: true }) +
      reportLines(sneaky, { labelledTotals: true })
        .map((line) => csvRow(columns, line))
        .join('');
    expect(text.startsWith('\uFEFFOperator,State,Currency,Count,Sum\r\n')).toBe(true);
    expect(parse(text, { bom: true })).toEqual([
      ['Operator', 'State', 'Currency', 'Count', 'Sum'],
      ["'=1+1", 'success', 'KZT', '1', '5'],
      ['ann', 'success', 'USD', '1', '1.50'],
      ['Total', '', 'KZT', '1', '5'],
      ['Total', '', 'USD', '1', '1.50'],
    ]);
  });

  it('grouped by currency alone, a table and CSV show no total rows (each group is its total); JSON does', () => {
    const byCurrency = tallied(['currency']);
    expect(reportLines(byCurrency, { labelledTotals: true }).map((line) => line.kind)).toEqual(['group', 'group']);
    expect(reportTable(byCurrency, plainStyle)).not.toContain('Total');
    expect(reportLines(byCurrency, { labelledTotals: false }).map((line) => line.kind)).toEqual([
      'group',
      'group',
      'total',
      'total',
    ]);
  });

  it('JSON: one object per group line and per total line, sums as strings, the range as ISO instants', () => {
    const range = { from: new Date(Date.UTC(2026, 10, 21, 19)), until: new Date(Date.UTC(2026, 10, 22, 19)) };
    const lines = reportLines(report, { labelledTotals: false }).map((line) => JSON.parse(reportJsonLine(line, range)));
    expect(lines[0]).toEqual({
      kind: 'group',
      service: '101',
      state: 'success',
      currency: 'KZT',
      count: 2,
      sum: '0.3',
      from: '2026-11-21T19:00:00.000Z',
      until: '2026-11-22T19:00:00.000Z',
    });
    expect(lines.at(-1)).toEqual({
      kind: 'total',
      currency: 'USD',
      count: 2,
      sum: '37.205',
      from: '2026-11-21T19:00:00.000Z',
      until: '2026-11-22T19:00:00.000Z',
    });
    expect(
      JSON.parse(
        reportJsonLine(
          { kind: 'total', total: { currency: 'KZT', count: 0, sum: '0' } },
          { from: null, until: range.until },
        ),
      ).from,
    ).toBeNull();
  });
});
