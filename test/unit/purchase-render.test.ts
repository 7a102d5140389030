import { describe, expect, it } from 'vitest';
import type { Voucher } from '../../src/protocol/vouchers.js';
import { renderPurchaseSummary, truncate, voucherChoiceLabels, wrapWords } from '../../src/render/purchase.js';
import { loadStyle, plainStyle } from '../../src/render/style.js';

const voucher = (position: number, invoiceId: string, orderAmount: string, name: string): Voucher => ({
  position,
  fieldName: `Invoice-${position}`,
  invoiceId,
  orderAmount,
  name,
});

const vouchers = [
  voucher(1, '5001', '499.00', '100 GameCoins'),
  voucher(2, '5002', '2497.00', '550 GameCoins'),
  voucher(4, '5004', '9990.00', '2500 GameCoins with the Legendary Dragon Rider bonus bundle and a season pass'),
];

describe('truncate and wrapWords', () => {
  it('cut with an ellipsis and wrap at spaces, splitting only words longer than the width', () => {
    expect(truncate('550 GameCoins', 20)).toBe('550 GameCoins');
    expect(truncate('550 GameCoins', 8)).toBe('550 Gam…');
    expect(wrapWords('2500 GameCoins with the Legendary Dragon', 16)).toEqual([
      '2500 GameCoins',
      'with the',
      'Legendary Dragon',
    ]);
    expect(wrapWords('x'.repeat(20), 8)).toEqual(['xxxxxxxx', 'xxxxxxxx', 'xxxx']);
  });
});

describe('voucherChoiceLabels', () => {
  it('aligns position, name and exact amount, and cuts long names', () => {
    expect(voucherChoiceLabels(vouchers, 'KZT', 76)).toMatchInlineSnapshot(`
      [
        "#1  100 GameCoins                              499.00 KZT",
        "#2  550 GameCoins                             2497.00 KZT",
        "#4  2500 GameCoins with the Legendary Drago…  9990.00 KZT",
      ]
    `);
  });

  it('never makes a label wider than asked, keeping the amount whole', () => {
    for (const width of [30, 40, 56]) {
      for (const label of voucherChoiceLabels(vouchers, 'KZT', width)) {
        expect(label.length).toBeLessThanOrEqual(width);
        expect(label).toMatch(/\d+\.\d\d KZT$/);
      }
    }
  });
});

describe('renderPurchaseSummary', () => {
  const summary = {
    service: '101',
    serviceName: 'GameCoins top-up',
    account: '7011234567',
    voucher: vouchers[2],
    amount: '9990.00',
    currency: 'KZT',
    transactionId: '1795289214527958198',
  };

  it('shows every value as it will be sent; a long name wraps under itself', () => {
    expect(renderPurchaseSummary(summary, plainStyle, 60)).toMatchInlineSnapshot(`
      "About to pay
        Service        101 (GameCoins top-up)
        Account        7011234567
        Voucher        2500 GameCoins with the Legendary Dragon
                       Rider bonus bundle and a season pass
        Amount         9990.00 KZT (the OrderAmount, exactly)
        InvoiceId      5004
        TransactionID  1795289214527958198"
    `);
  });

  it('says so for a static service, with no InvoiceId', () => {
    const text = renderPurchaseSummary(
      { ...summary, service: '201', serviceName: undefined, voucher: undefined, amount: '150.5' },
      plainStyle,
      80,
    );
    expect(text).toContain('Voucher        static (no voucher list)');
    expect(text).toContain('Amount         150.5 KZT\n');
    expect(text).not.toContain('InvoiceId');
  });

  it('shows a rate other than 1 and the crediting currency, after the amount', () => {
    const text = renderPurchaseSummary(
      {
        ...summary,
        service: '102',
        serviceName: undefined,
        voucher: undefined,
        amount: '10.630',
        currency: 'USD',
        exchange: { exchangeRate: '0.921', paidIn: 'USD', creditedIn: 'EUR' },
      },
      plainStyle,
      80,
    );
    expect(text).toContain('  Amount         10.630 USD\n  Exchange rate  0.921: paid in USD, credited in EUR\n');
    const unstated = renderPurchaseSummary(
      { ...summary, exchange: { exchangeRate: '0.921', paidIn: 'USD', creditedIn: undefined } },
      plainStyle,
      80,
    );
    expect(unstated).toContain('Exchange rate  0.921: paid in USD, crediting currency not given');
    expect(renderPurchaseSummary(summary, plainStyle, 80)).not.toContain('Exchange rate');
  });

  it('uses colour only when the style has it', async () => {
    expect(renderPurchaseSummary(summary, plainStyle, 80)).not.toContain('\x1b[');
    expect(renderPurchaseSummary(summary, await loadStyle(1), 80)).toContain('\x1b[1m9990.00');
  });
});
