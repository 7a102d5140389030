import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { TransactionView } from '../../src/protocol/transaction-view.js';
import { type LedgerReceipt, ledgerReceiptJson, renderLedgerReceipt } from '../../src/render/receipt.js';
import { loadStyle, plainStyle } from '../../src/render/style.js';
import { displayWidth, wrapToWidth } from '../../src/render/text-width.js';
import { renderReceipt } from '../../src/render/transaction.js';

const view: TransactionView = {
  transactionId: '1795289214527958198',
  requestId: '9007199254740993',
  type: 'Payment',
  status: '10',
  state: 'success',
  message: 'Успех',
  service: '101',
  account: '7011234567',
  amount: '4990.50',
  currency: 'KZT',
  exchangeRate: '1',
  serviceCurrency: 'KZT',
};

const receipt: LedgerReceipt = {
  view,
  voucher: 'Пополнение игрового счёта: 1200 монет и бонусный набор «Всадник дракона»',
  operator: 'Ольга Петровна',
  at: '2025-03-04T15:05:06.789Z',
};

const widest = (text: string) => Math.max(...text.split('\n').map(displayWidth));

describe('displayWidth and wrapToWidth', () => {
  it('counts a Cyrillic letter as one column, a CJK character as two, accents and colour as none', () => {
    expect(displayWidth('Всадник дракона')).toBe(15);
    expect(displayWidth('金币')).toBe(4);
    expect(displayWidth('е\u0301ж')).toBe(2);
    expect(displayWidth('\u001b[32mуспех\u001b[39m')).toBe(5);
  });

  it('counts emoji of every block as two columns, so a line of them never runs past the width', () => {
    for (const emoji of ['🚀', '🪙', '⭐', '✨', '☎️', '🇰🇿', '👩‍💻']) expect(displayWidth(emoji), emoji).toBe(2);
    expect(widest(wrapToWidth('🚀'.repeat(16), 32).join('\n'))).toBeLessThanOrEqual(32);
    expect(wrapToWidth('🚀'.repeat(17), 32)).toHaveLength(2);
  });

  it('counts a symbol drawn as text (™, ®, ©, ❤) as one column, beside wide text too; with U+FE0F, two', () => {
    expect(displayWidth('GameCoins™')).toBe(10);
    for (const text of ['™', '®', '©', '❤', '↔']) {
      expect(displayWidth(text), text).toBe(1);
      expect(displayWidth(`${text}金`), `${text}金`).toBe(3);
    }
    expect(displayWidth('❤\ufe0f')).toBe(2);
    expect(displayWidth('1\ufe0f\u20e3')).toBe(2);
  });

  it('breaks at spaces, and inside a word only when the word alone is wider', () => {
    expect(wrapToWidth('Всадник дракона и набор', 10)).toEqual(['Всадник', 'дракона и', 'набор']);
    expect(wrapToWidth('17952892145279581981', 8)).toEqual(['17952892', '14527958', '1981']);
    expect(wrapToWidth('金币金币金', 5)).toEqual(['金币', '金币', '金']);
  });
});

describe('renderLedgerReceipt', () => {
  it("is pay's receipt with the voucher, the time (at the local offset) and the operator", () => {
    const text = renderLedgerReceipt(receipt, plainStyle, { utcOffsetMinutes: 180 });
    expect(text).toMatchInlineSnapshot(`
      "✓ Payment succeeded
        TransactionID  1795289214527958198
        RequestID      9007199254740993
        State          success (ResponseStatus 10)
        Service        101
        Account        7011234567
        Voucher        Пополнение игрового счёта: 1200 монет и бонусный набор «Всадник дракона»
        Amount         4990.50 KZT
        Exchange rate  1 (credited in KZT)
        Message        Успех
        Time           2025-03-04 18:05:06 +03:00
        Operator       Ольга Петровна"
    `);
    // Every line of pay's receipt is there, in its order.
    const lines = text.split('\n');
    expect(
      renderReceipt(view, plainStyle)
        .split('\n')
        .every((line) => lines.includes(line)),
    ).toBe(true);
  });

  it('shows a negative or part-hour offset, and what an older record lacks is left out', () => {
    const west = renderLedgerReceipt({ ...receipt, at: '2025-01-01T02:00:00.000Z' }, plainStyle, {
      utcOffsetMinutes: -210,
    });
    expect(west).toContain('Time           2024-12-31 22:30:00 -03:30');
    const older = renderLedgerReceipt({ view }, plainStyle);
    expect(older).toBe(renderReceipt(view, plainStyle));
  });

  it('--width 32: nothing wider, long values wrapped under their labels', () => {
    const text = renderLedgerReceipt(receipt, plainStyle, { width: 32, utcOffsetMinutes: 0 });
    expect(widest(text)).toBeLessThanOrEqual(32);
    expect(text).toMatchInlineSnapshot(`
      "✓ Payment succeeded
        TransactionID
          1795289214527958198
        RequestID
          9007199254740993
        State
          success (ResponseStatus 10)
        Service        101
        Account        7011234567
        Voucher
          Пополнение игрового счёта:
          1200 монет и бонусный набор
          «Всадник дракона»
        Amount         4990.50 KZT
        Exchange rate
          1 (credited in KZT)
        Message        Успех
        Time
          2025-03-04 15:05:06 +00:00
        Operator       Ольга Петровна"
    `);
  });

  it('--width 48: values beside their labels, wrapped under themselves', () => {
    const text = renderLedgerReceipt(receipt, plainStyle, { width: 48, utcOffsetMinutes: 0 });
    expect(widest(text)).toBeLessThanOrEqual(48);
    expect(text).toMatchInlineSnapshot(`
      "✓ Payment succeeded
        TransactionID  1795289214527958198
        RequestID      9007199254740993
        State          success (ResponseStatus 10)
        Service        101
        Account        7011234567
        Voucher        Пополнение игрового счёта: 1200
                       монет и бонусный набор «Всадник
                       дракона»
        Amount         4990.50 KZT
        Exchange rate  1 (credited in KZT)
        Message        Успех
        Time           2025-03-04 15:05:06 +00:00
        Operator       Ольга Петровна"
    `);
  });

  it('in colour wraps the same text, the colour following the words', async () => {
    const style = await loadStyle(1);
    const warned = {
      ...receipt,
      view: { ...view, state: 'pending' as const, warnings: ['the gateway answered another Amount than was sent'] },
    };
    for (const width of [20, 32, 48]) {
      const coloured = renderLedgerReceipt(warned, style, { width });
      expect(coloured).toMatch(/\u001b\[/);
      expect(widest(coloured)).toBeLessThanOrEqual(width);
      expect(stripVTControlCharacters(coloured)).toBe(renderLedgerReceipt(warned, plainStyle, { width }));
    }
  });

  it('wraps a word wider than the line (an unbroken gateway Message) rather than overflow', () => {
    const text = renderLedgerReceipt({ view: { ...view, message: 'X'.repeat(70) } }, plainStyle, { width: 20 });
    expect(widest(text)).toBeLessThanOrEqual(20);
    expect(text.replace(/\s/g, '')).toContain('X'.repeat(70));
  });
});

describe('ledgerReceiptJson', () => {
  it('is the transaction JSON with voucher, operator and at; null where the record lacks them', () => {
    expect(JSON.parse(ledgerReceiptJson(receipt))).toEqual({
      ...view,
      voucher: receipt.voucher,
      operator: receipt.operator,
      at: receipt.at,
    });
    const older = JSON.parse(ledgerReceiptJson({ view }));
    expect(Object.keys(older).slice(-3)).toEqual(['voucher', 'operator', 'at']);
    expect([older.voucher, older.operator, older.at]).toEqual([null, null, null]);
  });
});
