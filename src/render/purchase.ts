import { type Catalogue, en } from '../i18n/en.js';
import type { ForeignExchange } from '../protocol/exchange-rate.js';
import type { Voucher } from '../protocol/vouchers.js';
import { type LiveLine, renderLiveLine } from './live-line.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';

/** Cuts `text` to `width` characters, marking the cut with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(0, width));
  return `${text.slice(0, width - 1).trimEnd()}…`;
}

/** Breaks `text` into lines of at most `width` characters, at spaces where it can. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    let rest = word;
    while (rest.length > width) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

// A voucher picker's one-line labels (position, name, OrderAmount, currency) aligned, names cut to fit `width`:
// a wrapped line would make the picker redraw in the wrong place.
export function voucherChoiceLabels(
  given: readonly Voucher[],
  givenCurrency: string,
  width: number,
  said: Catalogue = en,
): string[] {
  // The gateway's texts as shown (shownText) before they are measured and cut.
  const vouchers = given.map((v) => ({ ...v, name: shownText(v.name), orderAmount: shownText(v.orderAmount) }));
  const currency = shownText(givenCurrency);
  const positionWidth = Math.max(...vouchers.map((v) => String(v.position).length));
  const amounts = vouchers.map((v) => said.amount(v.orderAmount));
  const amountWidth = Math.max(...amounts.map((amount) => amount.length));
  // "#n  <name>  <amount> <currency>"
  const fixed = 1 + positionWidth + 2 + 2 + amountWidth + 1 + currency.length;
  // Names past 40 characters are cut: the table above shows them whole.
  const nameWidth = Math.max(4, Math.min(Math.max(...vouchers.map((v) => v.name.length)), 40, width - fixed));
  return vouchers.map((v, index) => {
    const name = truncate(v.name || said.receipt.noName, nameWidth).padEnd(nameWidth);
    return truncate(
      `#${String(v.position).padEnd(positionWidth)}  ${name}  ${(amounts[index] ?? v.orderAmount).padStart(amountWidth)} ${currency}`,
      width,
    );
  });
}

/** `0.921: paid in USD, credited in EUR`, for the summary and check's heading. */
export function exchangeText(exchange: ForeignExchange, said: Catalogue = en): string {
  const { exchangeRate, paidIn, creditedIn } = exchange;
  return said.check.exchange(
    exchangeRate === undefined ? undefined : said.number(shownText(exchangeRate)),
    shownText(paidIn),
    creditedIn === undefined ? undefined : shownText(creditedIn),
  );
}

export interface PurchaseSummary {
  service: string;
  /** The service's name where it is known (the sandbox catalogue). */
  serviceName?: string | undefined;
  account: string;
  /** The chosen voucher; undefined for a static service. */
  voucher: Voucher | undefined;
  /** Exactly what goes out as Amount. */
  amount: string;
  currency: string;
  transactionId: string;
  /** A rate other than 1 or another crediting currency, from the account check: shown before the yes. */
  exchange?: ForeignExchange | undefined;
  /** Paying through a live profile: its LIVE line heads the summary. */
  live?: LiveLine | undefined;
}

// What is about to be paid, before the confirmation: every value as it will be sent, wrapped under itself.
export function renderPurchaseSummary(
  summary: PurchaseSummary,
  style: Style,
  columns: number,
  said: Catalogue = en,
): string {
  const { labels } = said.buy;
  // Every value from outside shown through shownText (the gateway's, the person's, the order's).
  const rows: [string, string][] = [
    [labels.service, shownText(summary.serviceName ? `${summary.service} (${summary.serviceName})` : summary.service)],
    [labels.account, shownText(summary.account)],
    [labels.voucher, summary.voucher ? shownText(summary.voucher.name) || said.receipt.noName : said.buy.staticVoucher],
    [
      labels.amount,
      `${style.strong(shownText(said.amount(summary.amount)))} ${shownText(summary.currency)}${summary.voucher ? style.dim(said.buy.orderAmountExactly) : ''}`,
    ],
  ];
  if (summary.exchange) rows.push([labels.exchangeRate, exchangeText(summary.exchange, said)]);
  if (summary.voucher) rows.push([labels.invoiceId, shownText(summary.voucher.invoiceId)]);
  rows.push([labels.transactionId, shownText(summary.transactionId)]);
  const labelWidth = Math.max(...rows.map(([label]) => label.length));
  const indent = 2 + labelWidth + 2;
  const valueWidth = Math.max(16, columns - indent - 1);
  const lines = [
    ...(summary.live ? [renderLiveLine(summary.live, style, said)] : []),
    style.strong(said.buy.aboutToPay),
  ];
  for (const [label, value] of rows) {
    // Only plain values are wrapped; the styled Amount line is short.
    const parts = value.includes('\x1b') ? [value] : wrapWords(value, valueWidth);
    lines.push(`  ${style.dim(label.padEnd(labelWidth))}  ${parts[0] ?? ''}`);
    for (const part of parts.slice(1)) lines.push(`${' '.repeat(indent)}${part}`);
  }
  return lines.join('\n');
}
