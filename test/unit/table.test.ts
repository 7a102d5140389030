import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import type { TransactionView } from '../../src/protocol/transaction-view.js';
import type { Finding } from '../../src/registry/compare.js';
import { type HistoryRow, historyTable } from '../../src/render/history.js';
import { registryTableLines } from '../../src/render/registry.js';
import { shownText } from '../../src/render/sanitize.js';
import { loadStyle, plainStyle } from '../../src/render/style.js';
import { renderTable } from '../../src/render/table.js';
import { wrapCell } from '../../src/render/table-cells.js';
import { displayWidth } from '../../src/render/text-width.js';
import { renderVoucherTable } from '../../src/render/vouchers.js';

/** The one table renderer (render/table.ts): fit to a width, long cells wrapped in their column, nothing cut. */

const view = (transactionId: string, state: TransactionView['state']): TransactionView => ({
  transactionId,
  requestId: '9007199254740993',
  type: 'Payment',
  status: '10',
  state,
  message: 'Успех',
  service: '102',
  account: 'player-42@example.kz',
  amount: '12500.630',
  currency: 'USD',
  exchangeRate: null,
  serviceCurrency: null,
});

const historyRows: HistoryRow[] = [
  {
    at: '2026-11-21T10:00:00.000Z',
    gateway: 'https://pay.example.kz/agent',
    view: view('1795289214527958198', 'success'),
    recordedBy: { operator: 'cashier-anna', host: 'desk-07.branch.local' },
    approval: { requestedBy: 'cashier-anna', approvedBy: 'supervisor-boris' },
  },
  { at: '2026-11-21T10:05:00.000Z', gateway: 'sandbox', view: view('42', 'unknown') },
];

const historyLines = (width: number | undefined, team = true) => {
  const options = { style: plainStyle, showGateway: team, showRecordedBy: team, width };
  const table = historyTable(historyRows, options);
  return {
    lines: [table.head, ...historyRows.map((row) => table.row(row)), table.foot].join('\n').split('\n'),
    hidden: table.hidden,
  };
};

const finding = (list: Finding['list'], transactionId: string): Finding => ({
  list,
  transactionId,
  date: '2026-11-21',
  account: 'account-with-a-long-name-7011234567',
  registryAmount: '12500.00',
  ledgerAmount: list === 'different' ? '12499.00' : null,
  registryState: 'paid',
  ledgerState: list === 'different' ? 'success' : null,
});
const findings = [finding('only-in-registry', '1795289214527958198'), finding('different', '2')];

const widest = (lines: readonly string[]) => Math.max(...lines.map(displayWidth));

describe.each([80, 60])('at %i columns', (width) => {
  it('history (a team ledger, several gateways): no line longer than the width, ids whole', () => {
    const { lines, hidden } = historyLines(width);
    expect(widest(lines)).toBeLessThanOrEqual(width);
    expect(lines.join('\n')).toContain('1795289214527958198');
    expect(hidden).toContain('RequestID');
  });

  it('the registry lists: no line longer than the width, in English and Russian', () => {
    for (const said of [en, ru]) {
      const { lines } = registryTableLines(findings, { style: plainStyle, width }, said);
      expect(widest(lines)).toBeLessThanOrEqual(width);
      expect(lines.join('\n')).toContain('1795289214527958198');
    }
  });

  it('with colour too (box borders, coloured marks)', async () => {
    const style = await loadStyle(3);
    const table = historyTable(historyRows, { style, showGateway: true, showRecordedBy: true, width });
    expect(widest([table.head, table.row(historyRows[0]!), table.foot].join('\n').split('\n'))).toBeLessThanOrEqual(
      width,
    );
  });
});

describe('at 200 columns', () => {
  it('history shows every column on one line a row (one gateway, a local ledger)', () => {
    const { lines, hidden } = historyLines(200, false);
    expect(hidden).toEqual([]);
    const { gateway, operator, host, approvedBy, ...shown } = en.history.head;
    for (const name of Object.values(shown)) expect(lines[1]).toContain(name);
    for (const name of [gateway, operator, host, approvedBy]) expect(lines[1]).not.toContain(name);
    expect(lines).toHaveLength(5);
  });

  it('the registry lists show every column', () => {
    const { lines, hidden } = registryTableLines(findings, { style: plainStyle, width: 200 }, en);
    expect(hidden).toEqual([]);
    for (const name of Object.values(en.registry.head)) expect(lines[1]).toContain(name);
    expect(lines).toHaveLength(5);
  });
});

describe('a long word in a cell', () => {
  const name = shownText('Подарочная карта\u2028на 60 UC');

  it('wraps across lines within its column: every character kept, none cut, no ellipsis', () => {
    const lines = wrapCell('Supercalifragilisticexpialidocious', 10);
    expect(lines).toEqual(['Supercalif', 'ragilistic', 'expialidoc', 'ious']);
  });

  it('an escape the sanitizer wrote is one unit, never split', () => {
    for (const width of [6, 7, 8, 9, 10, 11]) {
      const lines = wrapCell(name, width);
      expect(lines.join('').replaceAll(' ', '')).toBe(name.replaceAll(' ', ''));
      expect(lines.some((line) => line.includes('\\u2028'))).toBe(true);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    }
  });

  it('a colour open at a break is closed on its line and opened again on the next', () => {
    expect(wrapCell('\u001b[1mabcdef\u001b[22m', 3)).toEqual(['\u001b[1mabc\u001b[0m', '\u001b[1mdef\u001b[22m']);
  });

  it('the voucher table wraps a long name whole (`…60 UC` kept, the escape whole)', () => {
    const voucher = { position: 1, fieldName: 'Invoice-1', invoiceId: '5001', orderAmount: '499.00' };
    const long = `${'Подарочнаякартанабаттлпассиещёчто-нибудь'.repeat(2)}\u2028на 60 UC`;
    const table = renderVoucherTable([{ ...voucher, name: long }], { currency: 'KZT', columns: 60, style: plainStyle });
    expect(table).not.toContain('…');
    expect(widest(table.split('\n'))).toBeLessThanOrEqual(60);
    expect(table).toContain('\\u2028');
    expect(table).toMatch(/60 UC/);
  });

  it('a table without a width keeps every cell on one line', () => {
    const { lines } = renderTable([{ heading: 'Name' }], [['a very long name indeed']], { style: plainStyle });
    expect(lines[2]).toBe('| a very long name indeed |');
  });
});

describe('the width of text', () => {
  it('counts the symbols tables and notes use as graphemes would: one column each', () => {
    const symbols = '✓ success ✗ failed — № 5 → ← ↑ ↓ “a” ‹b› ₸ ₽ € ‰ ┌─┬─┐│└┴┘…';
    // A wide character sends the text through the grapheme count; it takes two columns of its own.
    expect(displayWidth(symbols)).toBe([...symbols].length);
    expect(displayWidth(`${symbols}中`)).toBe([...symbols].length + 2);
  });
});
