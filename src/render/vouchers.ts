import { type Catalogue, en } from '../i18n/en.js';
import type { Voucher } from '../protocol/vouchers.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { renderTable, type TableColumn } from './table.js';
import { wrapCell } from './table-cells.js';
import { displayWidth } from './text-width.js';

export interface VoucherTableOptions {
  currency: string;
  /** Terminal width; the name column shrinks (and wraps) to fit. Undefined: as wide as the names. */
  columns: number | undefined;
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

// The voucher table (#, InvoiceId, name, OrderAmount, currency), the amount exactly as the gateway wrote it;
// a long name wraps in its column.
export function renderVoucherTable(given: readonly Voucher[], givenOptions: VoucherTableOptions): string {
  const { vouchers, currency: shownCurrency } = shownVouchers(given, givenOptions.currency);
  const options = { ...givenOptions, currency: shownCurrency };
  const { style } = options;
  const said = options.said ?? en;
  const { position, invoiceId, name, orderAmount, currency } = said.check.head;
  const amounts = vouchers.map((v) => said.amount(v.orderAmount));
  const columns: TableColumn[] = [
    { heading: position, align: 'right', whole: true },
    { heading: invoiceId, align: 'right', whole: true },
    { heading: name },
    { heading: orderAmount, align: 'right', whole: true },
    { heading: currency, whole: true },
  ];
  const rows = vouchers.map((voucher, index) => [
    String(voucher.position),
    voucher.invoiceId,
    voucher.name,
    style.strong(amounts[index] ?? voucher.orderAmount),
    options.currency,
  ]);
  // Too narrow for the table's whole columns and a readable name (a split pane, a small
  // window): one voucher per few lines instead, still every digit of its amount.
  if (options.columns !== undefined) {
    const whole = columns.map((column, index) =>
      index === 2
        ? minimumNameWidth
        : Math.max(displayWidth(column.heading), ...rows.map((row) => displayWidth(row[index]!))),
    );
    if (whole.reduce((sum, width) => sum + width + 3, 1) > options.columns) return renderVoucherList(vouchers, options);
  }
  return renderTable(columns, rows, { style, width: options.columns }).lines.join('\n');
}

// The vouchers for a terminal too narrow for the table: number and name (wrapped under itself), then
// InvoiceId and amount on a line of their own.
function renderVoucherList(vouchers: readonly Voucher[], options: VoucherTableOptions): string {
  const { style } = options;
  const said = options.said ?? en;
  const numberWidth = Math.max(...vouchers.map((v) => String(v.position).length)) + 2;
  const indent = ' '.repeat(numberWidth);
  const nameWidth = Math.max(10, (options.columns ?? 80) - numberWidth);
  const blocks = vouchers.map((voucher) => {
    const [first = '', ...rest] = wrapCell(voucher.name || said.receipt.noName, nameWidth);
    return [
      `${`${voucher.position}.`.padEnd(numberWidth)}${first}`,
      ...rest.map((line) => `${indent}${line}`),
      `${indent}${style.heading(said.check.head.invoiceId)} ${voucher.invoiceId}  ${style.strong(said.amount(voucher.orderAmount))} ${options.currency}`,
    ].join('\n');
  });
  return blocks.join('\n');
}
