import { type Catalogue, en } from '../i18n/en.js';
import type { TransactionState, TransactionView } from '../protocol/transaction-view.js';
import { layoutReceipt, type Piece, type ReceiptRow } from './receipt-layout.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';

const marks: Record<TransactionState, [mark: string, role: 'success' | 'failure' | 'pending']> = {
  success: ['✓', 'success'],
  failed: ['✗', 'failure'],
  pending: ['…', 'pending'],
  unknown: ['?', 'pending'],
};

export function stateMark(state: TransactionState, style: Style): string {
  const [mark, role] = marks[state];
  return style[role](mark);
}

const stateRole = (state: TransactionState) =>
  state === 'success' ? 'success' : state === 'failed' ? 'failure' : 'pending';

function colourState(state: TransactionState, style: Style, said: Catalogue): string {
  return style[stateRole(state)](said.states[state]);
}

/** An amount and its currency for a person, the amount formatted for the language (every digit kept). */
function moneyText(amount: string | null, currency: string | null, said: Catalogue): string {
  if (amount === null) return '-';
  return currency ? `${said.amount(amount)} ${currency}` : said.amount(amount);
}

/** What a receipt is of: a payment just made (pay, buy), or a transaction looked up (status). */
export type ReceiptNoun = 'payment' | 'transaction';

/** A receipt's heading: the state's mark and what became of the payment. */
export function receiptHeading(
  view: TransactionView,
  style: Style,
  noun: ReceiptNoun = 'payment',
  said: Catalogue = en,
): Piece[] {
  const [mark, role] = marks[view.state];
  const { receipt } = said;
  return [
    { text: mark, paint: style[role] },
    { text: ' ' },
    { text: receipt.heading(noun, view.state), paint: style.strong },
  ];
}

/** A receipt's rows for one transaction: what the gateway said of it (its Message as sent; layoutReceipt shows it). */
export function receiptRows(view: TransactionView, style: Style, said: Catalogue = en): ReceiptRow[] {
  const plain = (text: string): Piece[] => [{ text }];
  const labels = said.receipt.labels;
  const status = view.status === null ? [] : [{ text: ` (ResponseStatus ${view.status})`, paint: style.dim }];
  const rows: ReceiptRow[] = [
    [labels.transactionId, plain(view.transactionId)],
    [labels.requestId, plain(view.requestId ?? '-')],
    [labels.state, [{ text: said.states[view.state], paint: style[stateRole(view.state)] }, ...status]],
    [labels.service, plain(view.service ?? '-')],
    [labels.account, plain(view.account ?? '-')],
    [labels.amount, plain(moneyText(view.amount, view.currency, said))],
  ];
  if (view.exchangeRate !== null || view.serviceCurrency !== null) {
    rows.push([
      labels.exchangeRate,
      plain(
        `${view.exchangeRate === null ? '-' : said.number(view.exchangeRate)}${view.serviceCurrency ? said.receipt.creditedIn(view.serviceCurrency) : ''}`,
      ),
    ]);
  }
  rows.push([labels.message, plain(view.message || '-')]);
  // After the gateway's own words, so the Amount above it is read with the warning in mind.
  for (const warning of view.warnings ?? [])
    rows.push([labels.warning, [{ text: `! ${warning}`, paint: style.pending }]]);
  return rows;
}

/** A receipt for one transaction, for a person. */
export function renderReceipt(
  view: TransactionView,
  style: Style,
  noun: ReceiptNoun = 'payment',
  said: Catalogue = en,
): string {
  return layoutReceipt(receiptHeading(view, style, noun, said), receiptRows(view, style, said), style);
}

/** One line per transaction, for batches; what the gateway said shown through shownText. */
export function renderTransactionLine(view: TransactionView, style: Style, said: Catalogue = en): string {
  const parts = [
    stateMark(view.state, style),
    shownText(view.transactionId),
    colourState(view.state, style, said).padEnd(style.enabled ? 0 : 7),
    view.status === null ? '-' : shownText(view.status),
    shownText(view.requestId ?? '-'),
    shownText(moneyText(view.amount, view.currency, said)),
    shownText(view.message || '-'),
  ];
  return parts.join('  ');
}

/** The transaction JSON shape (docs/commands.md "JSON output"), one line. */
export function transactionJson(view: TransactionView, extra?: Record<string, unknown>): string {
  return JSON.stringify(extra === undefined ? view : { ...view, ...extra });
}
