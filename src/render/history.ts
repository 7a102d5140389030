import Table from 'cli-table3';
import type { TransactionView } from '../protocol/transaction-view.js';
import type { Style } from './style.js';
import { tableChars } from './table-chars.js';
import { stateMark } from './transaction.js';

export interface HistoryRow {
  /** When the intent was written (ISO 8601). */
  at: string;
  /** The gateway it was paid through, as the journal names it: the base URL, or "sandbox". */
  gateway: string;
  view: TransactionView;
}

/**
 * The journal as a table, one row per transaction, latest state. When the rows come from more
 * than one gateway a Gateway column says which: the same TransactionID means nothing across them.
 */
export function renderHistoryTable(rows: readonly HistoryRow[], options: { style: Style; columns: number }): string {
  const { style } = options;
  const showGateway = new Set(rows.map((row) => row.gateway)).size > 1;
  const head = ['When', ...(showGateway ? ['Gateway'] : []), 'TransactionID', 'State', 'Service', 'Account', 'Amount', 'RequestID'];
  const table = new Table({
    head: head.map((h) => style.heading(h)),
    style: { head: [], border: [] },
    chars: tableChars(style.enabled),
  });
  for (const { at, gateway, view } of rows) {
    table.push([
      at.replace('T', ' ').slice(0, 19),
      ...(showGateway ? [gateway] : []),
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
