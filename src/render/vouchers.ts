import Table from 'cli-table3';
import { type Catalogue, en } from '../i18n/en.js';
import type { Voucher } from '../protocol/vouchers.js';
import { wrapWords } from './purchase.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';

export interface VoucherTableOptions {
  currency: string;
  /** Terminal width; the name column shrinks (and wraps) to fit. */
  columns: number;
  style: Style;
  /** The language of the headings and the amounts; English when not given. */
  said?: Catalogue | undefined;
}

/** The narrowest name column the table is drawn with; below it, the list layout. */
const minimumNameWidth = 8;

/** The gateway's texts of a voucher and the currency as a person is shown them (shownText), the position as it is. */
function shownVouchers(vouchers: readonly Voucher[], currency: string): { vouchers: Voucher[]; currency: string } {
  return {
    vouchers: vouchers.map((v) => ({
      ...v,
      name: shownText(v.name),
      invoiceId: shownText(v.invoiceId),
      orderAmount: shownText(v.orderAmount),
    })),
    currency: shownText(currency),
  };
}

/**
 * The voucher list as a table: #, InvoiceId, name, OrderAmount, currency. The amount is
 * shown exactly as the gateway wrote it (its controls as escapes, as every text of it).
 */
export function renderVoucherTable(given: readonly Voucher[], givenOptions: VoucherTableOptions): string {
  const { vouchers, currency: shownCurrency } = shownVouchers(given, givenOptions.currency);
  const options = { ...givenOptions, currency: shownCurrency };
  const { style } = options;
  const said = options.said ?? en;
  const { position, invoiceId, name, orderAmount, currency } = said.check.head;
  const head = [position, invoiceId, name, orderAmount, currency];
  const amounts = vouchers.map((v) => said.amount(v.orderAmount));
  const fixed = [
    Math.max(3, ...vouchers.map((v) => String(v.position).length + 2)),
    Math.max(invoiceId.length + 2, ...vouchers.map((v) => v.invoiceId.length + 2)),
    0,
    Math.max(orderAmount.length + 2, ...amounts.map((amount) => amount.length + 2)),
    Math.max(currency.length + 2, options.currency.length + 2),
  ];
  // Borders take one column per cell plus one.
  const spare = options.columns - fixed.reduce((sum, w) => sum + w, 0) - (head.length + 1);
  // Too narrow for the table's fixed columns and a readable name (a split pane, a small
  // window): one voucher per few lines instead, still every digit of its amount.
  if (spare < minimumNameWidth) return renderVoucherList(vouchers, options);
  const longestName = Math.max(6, ...vouchers.map((v) => v.name.length + 2));
  fixed[2] = Math.min(longestName, spare);
  const table = new Table({
    head: head.map((h) => style.heading(h)),
    colWidths: fixed,
    colAligns: ['right', 'right', 'left', 'right', 'left'],
    wordWrap: true,
    wrapOnWordBoundary: true,
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  for (const [index, voucher] of vouchers.entries()) {
    table.push([
      String(voucher.position),
      voucher.invoiceId,
      voucher.name,
      style.strong(amounts[index] ?? voucher.orderAmount),
      options.currency,
    ]);
  }
  return table.toString();
}

/**
 * The vouchers for a terminal too narrow for the table: per voucher, its number and name
 * (wrapped under itself), then InvoiceId and amount on a line of their own, never cut.
 *
 *   1. 100 GameCoins
 *      InvoiceId 5001  499.00 KZT
 */
function renderVoucherList(vouchers: readonly Voucher[], options: VoucherTableOptions): string {
  const { style } = options;
  const said = options.said ?? en;
  const numberWidth = Math.max(...vouchers.map((v) => String(v.position).length)) + 2;
  const indent = ' '.repeat(numberWidth);
  const nameWidth = Math.max(10, options.columns - numberWidth);
  const blocks = vouchers.map((voucher) => {
    const [first = '', ...rest] = wrapWords(voucher.name || said.receipt.noName, nameWidth);
    return [
      `${`${voucher.position}.`.padEnd(numberWidth)}${first}`,
      ...rest.map((line) => `${indent}${line}`),
      `${indent}${style.heading(said.check.head.invoiceId)} ${voucher.invoiceId}  ${style.strong(said.amount(voucher.orderAmount))} ${options.currency}`,
    ].join('\n');
  });
  return blocks.join('\n');
}
