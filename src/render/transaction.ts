import type { TransactionState, TransactionView } from '../protocol/transaction-view.js';
import type { Style } from './style.js';

const headlines: Record<TransactionState, string> = {
  success: 'succeeded',
  failed: 'failed',
  pending: 'is in progress',
  unknown: 'outcome is unknown',
};

export function stateMark(state: TransactionState, style: Style): string {
  switch (state) {
    case 'success':
      return style.success('✓');
    case 'failed':
      return style.failure('✗');
    case 'pending':
      return style.pending('…');
    case 'unknown':
      return style.pending('?');
  }
}

function colourState(state: TransactionState, style: Style): string {
  if (state === 'success') return style.success(state);
  if (state === 'failed') return style.failure(state);
  return style.pending(state);
}

function moneyText(amount: string | null, currency: string | null): string {
  if (amount === null) return '-';
  return currency ? `${amount} ${currency}` : amount;
}

/** A receipt for one transaction, for a person. */
export function renderReceipt(view: TransactionView, style: Style, noun = 'Payment'): string {
  const rows: [string, string][] = [
    ['TransactionID', view.transactionId],
    ['RequestID', view.requestId ?? '-'],
    ['State', colourState(view.state, style) + (view.status === null ? '' : style.dim(` (ResponseStatus ${view.status})`))],
    ['Service', view.service ?? '-'],
    ['Account', view.account ?? '-'],
    ['Amount', moneyText(view.amount, view.currency)],
  ];
  if (view.exchangeRate !== null || view.serviceCurrency !== null) {
    rows.push(['Exchange rate', `${view.exchangeRate ?? '-'}${view.serviceCurrency ? ` (credited in ${view.serviceCurrency})` : ''}`]);
  }
  rows.push(['Message', view.message || '-']);
  // After the gateway's own words, so the Amount above it is read with the warning in mind.
  for (const warning of view.warnings ?? []) rows.push(['Warning', style.pending(`! ${warning}`)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const heading = `${stateMark(view.state, style)} ${style.strong(`${noun} ${headlines[view.state]}`)}`;
  return [heading, ...rows.map(([label, value]) => `  ${style.dim(label.padEnd(width))}  ${value}`)].join('\n');
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
