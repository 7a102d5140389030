import { describe, expect, it } from 'vitest';
import { badRowsText, progressBar, type SummaryKey, summaryText } from '../../src/render/bulk.js';

describe('bulk renderers', () => {
  it('names every bad row in file order, one a line, at most 20 then a count', () => {
    const problems = Array.from({ length: 22 }, (_, i) => ({
      line: 23 - i,
      column: i % 2 === 0 ? 'amount' : undefined,
      message: 'bad',
    }));
    const lines = badRowsText('orders.csv', problems).split('\n');
    expect(lines).toHaveLength(22);
    expect(lines.slice(0, 3)).toEqual([
      'orders.csv has 22 bad rows, nothing was sent:',
      '  line 2: bad',
      '  line 3, amount: bad',
    ]);
    expect(lines.slice(-2)).toEqual(['  line 21, amount: bad', '  and 2 more']);
  });

  it('draws the progress bar within the width, with an estimate once a row is done', () => {
    expect(progressBar({ done: 0, total: 10, failed: 0, elapsedMs: 0 }, 80)).toBe(
      '[------------------------------] 0/10  0 failed  0:00 elapsed  ~? left',
    );
    const half = progressBar({ done: 5, total: 10, failed: 1, elapsedMs: 10_000 }, 60);
    expect(half).toContain('5/10  1 failed  0:10 elapsed  ~0:10 left');
    expect(half.length).toBeLessThan(60);
  });

  it('sums the summary per state and currency', () => {
    const totals = new Map([
      [
        'success',
        new Map([
          ['KZT', { rows: 2, sum: '2996.00' }],
          ['USD', { rows: 1, sum: '10.630' }],
        ]),
      ],
    ] as const);
    expect(summaryText(totals, { rows: 4, notStarted: 1, interrupted: 'Ctrl+C' })).toBe(
      '4 rows (stopped by Ctrl+C): 3 success (2996.00 KZT + 10.630 USD); 1 not started',
    );
  });

  it('names the state of every row it counts: skipped ones by the state they kept, rows paid again apart', () => {
    const kzt = (rows: number, sum: string) => new Map([['KZT', { rows, sum }]]);
    const totals = new Map<SummaryKey, ReturnType<typeof kzt>>([
      ['skipped:success', kzt(20, '200.00')],
      ['skipped:failed', kzt(1, '10.00')],
      ['again:success', kzt(3, '30.00')],
      ['success', kzt(16, '160.00')],
    ]);
    expect(summaryText(totals, { rows: 40, notStarted: 0, interrupted: undefined })).toBe(
      '40 rows: 20 skipped, already success (200.00 KZT), 1 skipped, already failed (10.00 KZT), ' +
        '3 success, paid again (never made before) (30.00 KZT), 16 success (160.00 KZT)',
    );
  });
});
