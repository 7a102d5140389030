import type { TransactionState, TransactionView } from '../protocol/transaction-view.js';
import { layoutReceipt, type Piece, type ReceiptRow } from './receipt-layout.js';
import type { Style } from './style.js';

const headlines: Record<TransactionState, string> = {
  success: 'succeeded',
  failed: 'failed',
  pending: 'is in progress',
  unknown: 'outcome is unknown',
};

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

const stateRole = (state: TransactionState) => (state === 'success' ? 'success' : state === 'failed' ? 'failure' : 'pending');

function colourState(state: TransactionState, style: Style): string {
  return style[stateRole(state)](state);
}

function moneyText(amount: string | null, currency: string | null): string {
  if (amount === null) return '-';
  return currency ? `${amount} ${currency}` : amount;
}

/** A receipt's heading: the state's mark and what became of the payment. */
export function receiptHeading(view: TransactionView, style: Style, noun = 'Payment'): Piece[] {
  const [mark, role] = marks[view.state];
  return [{ text: mark, paint: style[role] }, { text: ' ' }, { text: `${noun} ${headlines[view.state]}`, paint: style.strong }];
}

/** A receipt's rows for one transaction: what the gateway said of it. */
export function receiptRows(view: TransactionView, style: Style): ReceiptRow[] {
  const plain = (text: string): Piece[] => [{ text }];
  const rows: ReceiptRow[] = [
    ['TransactionID', plain(view.transactionId)],
    ['RequestID', plain(view.requestId ?? '-')],
    ['State', [{ text: view.state, paint: style[stateRole(view.state)] }, ...(view.status === null ? [] : [{ text: ` (ResponseStatus ${view.status})`, paint: style.dim }])]],
    ['Service', plain(view.service ?? '-')],
    ['Account', plain(view.account ?? '-')],
    ['Amount', plain(moneyText(view.amount, view.currency))],
  ];
  if (view.exchangeRate !== null || view.serviceCurrency !== null) {
    rows.push(['Exchange rate', plain(`${view.exchangeRate ?? '-'}${view.serviceCurrency ? ` (credited in ${view.serviceCurrency})` : ''}`)]);
  }
  rows.push(['Message', plain(view.message || '-')]);
  // After the gateway's own words, so the Amount above it is read with the warning in mind.
  for (const warning of view.warnings ?? []) rows.push(['Warning', [{ text: `! ${warning}`, paint: style.pending }]]);
  return rows;
}

/** A receipt for one transaction, for a person. */
export function renderReceipt(view: TransactionView, style: Style, noun = 'Payment'): string {
  return layoutReceipt(receiptHeading(view, style, noun), receiptRows(view, style), style);
}

/** One line per transaction, for batches. */
export function renderTransactionLine(view: TransactionView, style: Style): string {
  const parts = [
    stateMark(view.state, style),
    view.transactionId,
    colourState(view.state, style).padEnd(style.enabled ? 0 : 7),
    view.status === null ? '-' : view.status,
    view.requestId ?? '-',
    moneyText(view.amount, view.currency),
    view.message || '-',
  ];
  return parts.join('  ');
}

/** The transaction JSON shape (README "JSON output"), one line. */
export function transactionJson(view: TransactionView, extra?: Record<string, unknown>): string {
  return JSON.stringify(extra === undefined ? view : { ...view, ...extra });
}
