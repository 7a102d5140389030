import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../src/protocol/transaction-view.js';
import type { Voucher } from '../../src/protocol/vouchers.js';
import { historyTable, historyTableLines } from '../../src/render/history.js';
import { loadStyle, plainStyle } from '../../src/render/style.js';
import { renderReceipt, renderTransactionLine, transactionJson } from '../../src/render/transaction.js';
import { renderVoucherTable } from '../../src/render/vouchers.js';
import { type DynamicService, sandboxServices } from '../../src/sandbox/catalogue.js';

const ansi = /\u001b\[/;

const success: TransactionView = {
  transactionId: '1795289214527958198',
  requestId: '9007199254740993',
  type: 'Payment',
  status: '10',
  state: 'success',
  message: 'Успех',
  service: '102',
  account: 'player-42',
  amount: '10.630',
  currency: 'USD',
  exchangeRate: '0.921',
  serviceCurrency: 'EUR',
};

const unknown: TransactionView = {
  transactionId: '42',
  requestId: null,
  type: 'Payment',
  status: null,
  state: 'unknown',
  message: 'the outcome of payment 42 is unknown: the connection was closed before the answer arrived',
  service: '201',
  account: '7011234567',
  amount: '150.50',
  currency: 'KZT',
  exchangeRate: null,
  serviceCurrency: null,
};

function vouchersOf(serviceId: string): Voucher[] {
  const service = sandboxServices.find((s) => s.id === serviceId) as DynamicService;
  return service.vouchers.map((v, i) => ({
    position: i + 1,
    fieldName: `Invoice-${i + 1}`,
    invoiceId: v.invoiceId,
    orderAmount: v.orderAmount,
    name: v.name,
  }));
}

const width = (text: string) =>
  Math.max(...text.split('\n').map((line) => [...line.replace(/\u001b\[[0-9;]*m/g, '')].length));

describe('renderReceipt', () => {
  it('a success, every id and amount exact', () => {
    expect(renderReceipt(success, plainStyle)).toMatchInlineSnapshot(`
      "✓ Payment succeeded
        TransactionID  1795289214527958198
        RequestID      9007199254740993
        State          success (ResponseStatus 10)
        Service        102
        Account        player-42
        Amount         10.630 USD
        Exchange rate  0.921 (credited in EUR)
        Message        Успех"
    `);
  });

  it('an unknown outcome never reads as a failure', () => {
    const text = renderReceipt(unknown, plainStyle);
    expect(text).toMatchInlineSnapshot(`
      "? Payment outcome is unknown
        TransactionID  42
        RequestID      -
        State          unknown
        Service        201
        Account        7011234567
        Amount         150.50 KZT
        Message        the outcome of payment 42 is unknown: the connection was closed before the answer arrived"
    `);
    expect(text).not.toMatch(/fail/i);
  });

  it('a status look-up names itself', () => {
    expect(
      renderReceipt(
        { ...success, state: 'failed', status: '25', message: 'not found' },
        plainStyle,
        'transaction',
      ).split('\n')[0],
    ).toBe('✗ Transaction failed');
  });

  it('plain style has no escapes; a colour style has', async () => {
    expect(renderReceipt(success, plainStyle)).not.toMatch(ansi);
    expect(renderReceipt(success, await loadStyle(1))).toMatch(ansi);
  });
});

describe('renderTransactionLine', () => {
  it('one line per transaction', () => {
    expect(renderTransactionLine(success, plainStyle)).toMatchInlineSnapshot(
      `"✓  1795289214527958198  success  10  9007199254740993  10.630 USD  Успех"`,
    );
    expect(renderTransactionLine({ ...unknown, message: '' }, plainStyle)).toMatchInlineSnapshot(
      `"?  42  unknown  -  -  150.50 KZT  -"`,
    );
    expect(renderTransactionLine(success, plainStyle)).not.toContain('\n');
  });
});

describe('transactionJson', () => {
  it('is the one transaction shape, ids and amounts as strings', () => {
    const parsed = JSON.parse(transactionJson(success)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([
      'transactionId',
      'requestId',
      'type',
      'status',
      'state',
      'message',
      'service',
      'account',
      'amount',
      'currency',
      'exchangeRate',
      'serviceCurrency',
    ]);
    expect(parsed.requestId).toBe('9007199254740993');
    expect(parsed.amount).toBe('10.630');
    expect(JSON.parse(transactionJson(unknown, { error: { exitCode: 4, message: 'x' } }))).toMatchObject({
      state: 'unknown',
      error: { exitCode: 4 },
    });
  });
});

describe('renderVoucherTable', () => {
  it('the USD gift cards, amounts exactly as sent', () => {
    expect(
      renderVoucherTable(vouchersOf('102'), { currency: 'USD', columns: 80, style: plainStyle }),
    ).toMatchInlineSnapshot(`
      "+---+-----------+------------------+-------------+----------+
      | # | InvoiceId | Name             | OrderAmount | Currency |
      | 1 |      7010 | Gift card 10 EUR |      10.630 | USD      |
      | 2 |      7025 | Gift card 25 EUR |      26.575 | USD      |
      | 3 |      7050 | Gift card 50 EUR |      53.150 | USD      |
      +---+-----------+------------------+-------------+----------+"
    `);
  });

  it('the long sandbox voucher name wraps; the table stays within 80 columns', () => {
    const table = renderVoucherTable(vouchersOf('101'), { currency: 'KZT', columns: 80, style: plainStyle });
    expect(table).toMatchInlineSnapshot(`
      "+---+-----------+-------------------------------------+-------------+----------+
      | # | InvoiceId | Name                                | OrderAmount | Currency |
      | 1 |      5001 | 100 GameCoins                       |      499.00 | KZT      |
      | 2 |      5002 | 550 GameCoins                       |     2497.00 | KZT      |
      | 3 |      5003 | 1200 GameCoins                      |     4990.50 | KZT      |
      | 4 |      5004 | 2500 GameCoins with the Legendary   |     9990.00 | KZT      |
      |   |           | Dragon Rider bonus bundle and a     |             |          |
      |   |           | season pass                         |             |          |
      +---+-----------+-------------------------------------+-------------+----------+"
    `);
    expect(width(table)).toBeLessThanOrEqual(80);
    expect(table).toContain('9990.00');
  });

  it.each([80, 72, 60])('with colour and %i columns the table still fits', async (columns) => {
    const table = renderVoucherTable(vouchersOf('101'), { currency: 'KZT', columns, style: await loadStyle(3) });
    expect(table).toMatch(ansi);
    expect(width(table)).toBeLessThanOrEqual(columns);
    for (const amount of ['499.00', '2497.00', '4990.50', '9990.00']) expect(table).toContain(amount);
  });

  it("below the table's width (a split pane) each voucher takes a few lines, every digit kept", () => {
    const list = renderVoucherTable(vouchersOf('101'), { currency: 'KZT', columns: 40, style: plainStyle });
    expect(list).toMatchInlineSnapshot(`
      "1. 100 GameCoins
         InvoiceId 5001  499.00 KZT
      2. 550 GameCoins
         InvoiceId 5002  2497.00 KZT
      3. 1200 GameCoins
         InvoiceId 5003  4990.50 KZT
      4. 2500 GameCoins with the Legendary
         Dragon Rider bonus bundle and a
         season pass
         InvoiceId 5004  9990.00 KZT"
    `);
    expect(width(list)).toBeLessThanOrEqual(40);
  });

  it.each([50, 51, 52, 56])('at %i columns, table or list, nothing is wider than the terminal', (columns) => {
    const rendered = renderVoucherTable(vouchersOf('101'), { currency: 'KZT', columns, style: plainStyle });
    expect(width(rendered)).toBeLessThanOrEqual(columns);
    for (const amount of ['499.00', '2497.00', '4990.50', '9990.00']) expect(rendered).toContain(amount);
  });

  it('a wide terminal does not stretch short names', () => {
    const table = renderVoucherTable(vouchersOf('102'), { currency: 'USD', columns: 200, style: plainStyle });
    expect(width(table)).toBeLessThan(80);
  });

  it('no escapes in plain style', () => {
    expect(renderVoucherTable(vouchersOf('101'), { currency: 'KZT', columns: 80, style: plainStyle })).not.toMatch(
      ansi,
    );
  });
});

describe('historyTable', () => {
  const rows = [
    { at: '2026-11-21T10:00:00.000Z', gateway: 'sandbox', view: success },
    { at: '2026-11-21T10:05:00.000Z', gateway: 'sandbox', view: unknown },
  ];
  const render = (sample: typeof rows, all: typeof rows, showGateway = false) => {
    const table = historyTable(sample, { style: plainStyle, showGateway });
    return [table.head, ...all.map((row) => table.row(row)), table.foot].join('\n');
  };

  it('a small table: columns fit every cell, ASCII borders without colour, no rule between rows', () => {
    expect(render(rows, rows)).toBe(
      [
        '+---------------------+---------------------+-----------+---------+------------+------------+------------------+',
        '| When                | TransactionID       | State     | Service | Account    | Amount     | RequestID        |',
        '| 2026-11-21 10:00:00 | 1795289214527958198 | ✓ success | 102     | player-42  | 10.630 USD | 9007199254740993 |',
        '| 2026-11-21 10:05:00 | 42                  | ? unknown | 201     | 7011234567 | 150.50 KZT | -                |',
        '+---------------------+---------------------+-----------+---------+------------+------------+------------------+',
      ].join('\n'),
    );
  });

  it('widths come from the sample: a wider cell after it is printed whole, never cut', () => {
    const wide = { ...rows[1]!, view: { ...unknown, account: 'an-account-wider-than-its-column' } };
    const lines = render([rows[0]!], [rows[0]!, wide]).split('\n');
    expect(lines[3]).toContain('| an-account-wider-than-its-column |');
    expect(width(lines[2]!)).toBe(width(lines[0]!));
  });

  it('a Gateway column after When when asked; box borders with colour', async () => {
    expect(render(rows, rows, true).split('\n')[1]).toMatch(/^\| When +\| Gateway \| TransactionID/);
    const table = historyTable(rows, { style: await loadStyle(1), showGateway: false });
    expect(table.head.startsWith('┌')).toBe(true);
    expect(table.foot.startsWith('└')).toBe(true);
  });

  it('streamed: the widths from the first 1,000 rows, every row after them, nothing for no rows', async () => {
    // The first 1,000 rows hold short ids; those after them an id wider than its column.
    async function* stream(count: number) {
      for (let i = 0; i < count; i++)
        yield { ...rows[0]!, view: { ...success, transactionId: i < 1000 ? String(i) : `${i}`.repeat(5) } };
    }
    const linesOf = async (count: number) => {
      const lines: string[] = [];
      for await (const text of historyTableLines(stream(count), { style: plainStyle, showGateway: false }))
        lines.push(...text.split('\n'));
      return lines;
    };
    expect(await linesOf(0)).toEqual([]);
    expect(await linesOf(3)).toHaveLength(6);
    const lines = await linesOf(1500);
    expect(lines).toHaveLength(1503);
    expect(lines[1]).toMatch(/^\| When +\| TransactionID \| State/);
    expect(lines[1001]).toContain('| 999           |');
    expect(width(lines[1001]!)).toBe(width(lines[0]!));
    expect(lines[1002]).toContain('| 10001000100010001000 |');
    expect(lines.at(-1)).toBe(lines[0]);
  });
});
