import Table from 'cli-table3';
import type { TransactionView } from '../protocol/transaction-view.js';
import { stateMark } from './transaction.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';

export interface HistoryRow {
  /** When the intent was written (ISO 8601). */
  at: string;
  view: TransactionView;
}

/** The journal as a table, one row per transaction, latest state. */
export function renderHistoryTable(rows: readonly HistoryRow[], options: { style: Style; columns: number }): string {
  const { style } = options;
  const table = new Table({
    head: ['When', 'TransactionID', 'State', 'Service', 'Account', 'Amount', 'RequestID'].map((h) => style.heading(h)),
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  for (const { at, view } of rows) {
    table.push([
      at.replace('T', ' ').slice(0, 19),
      view.transactionId,
      `${stateMark(view.state, style)} ${view.state}`,
      view.service ?? '-',
      view.account ?? '-',
      view.amount === null ? '-' : `${view.amount} ${view.currency ?? ''}`.trim(),
      view.requestId ?? '-',
    ]);
  }
  return table.toString();
}
