import { type Catalogue, en } from '../i18n/en.js';
import type { ApprovalMarks } from '../ledger/approval-marks.js';
import type { TransactionView } from '../protocol/transaction-view.js';
import { machineLocalTimeText } from './receipt.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { stateMark } from './transaction.js';

export interface HistoryRow {
  /** When the intent was written (ISO 8601). */
  at: string;
  /** The gateway it was paid through, as the journal names it: the base URL, or "sandbox". */
  gateway: string;
  view: TransactionView;
  /** Who made the payment and on which machine, where the ledger records it (a team ledger). */
  recordedBy?: { operator: string; host: string } | undefined;
  /** Who asked for it and which supervisor approved it, for a payment a second person approved (team ledger). */
  approval?: ApprovalMarks | undefined;
}

export interface HistoryTableOptions {
  style: Style;
  showGateway: boolean;
  /** Operator, Host and Approved-by columns: the ledger is shared by a team. */
  showRecordedBy?: boolean;
  /** The catalogue the headings and states are said in (English by default). */
  said?: Catalogue;
}

/** The history table line by line, so that a journal of any size streams (history/run.ts). */
export interface HistoryTable {
  /** The top border and the heading row. */
  head: string;
  row(row: HistoryRow): string;
  /** The bottom border. */
  foot: string;
}

/** Rows the widths are taken from: the first ones; later rows wider than their column stick out, never cut. */
const historyTableSample = 1000;

const asciiBorders = { top: ['+', '-', '+', '+'], bottom: ['+', '-', '+', '+'], side: '|' };
const boxBorders = { top: ['┌', '─', '┬', '┐'], bottom: ['└', '─', '┴', '┘'], side: '│' };

/** Width on a terminal: escapes take none, every other code point one. */
const widthOf = (text: string) => [...text.replace(/\u001b\[[0-9;]*m/g, '')].length;

/**
 * The journal as a table, one row per transaction, latest state: bordered (ASCII without
 * colour), a heading row, no rule between rows. When the rows come from more than one gateway
 * a Gateway column says which: the same TransactionID means nothing across them. Column widths
 * fit the heading and the `sample` (the first rows, historyTableSample), so a table of up to
 * that many rows looks as a table built whole would.
 */
export function historyTable(sample: readonly HistoryRow[], options: HistoryTableOptions): HistoryTable {
  const { style, showGateway, showRecordedBy = false, said = en } = options;
  const head = said.history.head;
  // The ledger's fields came from gateways and other operators' machines: each shown through shownText.
  const cellsOf = ({ at, gateway, view, recordedBy, approval }: HistoryRow): string[] => [
    shownText(machineLocalTimeText(at, said, false)),
    ...(showGateway ? [shownText(gateway)] : []),
    ...(showRecordedBy
      ? [
          shownText(recordedBy?.operator ?? '-'),
          shownText(recordedBy?.host ?? '-'),
          shownText(approval?.approvedBy ?? '-'),
        ]
      : []),
    shownText(view.transactionId),
    `${stateMark(view.state, style)} ${said.states[view.state]}`,
    shownText(view.service ?? '-'),
    shownText(view.account ?? '-'),
    shownText(view.amount === null ? '-' : `${said.amount(view.amount)} ${view.currency ?? ''}`.trim()),
    shownText(view.requestId ?? '-'),
  ];
  const heading = [
    head.when,
    ...(showGateway ? [head.gateway] : []),
    ...(showRecordedBy ? [head.operator, head.host, head.approvedBy] : []),
    head.transactionId,
    head.state,
    head.service,
    head.account,
    head.amount,
    head.requestId,
  ];
  const widths = heading.map((text) => widthOf(text));
  for (const row of sample)
    cellsOf(row).forEach((cell, column) => (widths[column] = Math.max(widths[column]!, widthOf(cell))));
  const borders = style.enabled ? boxBorders : asciiBorders;
  const rule = ([left, line, middle, right]: string[]) =>
    `${left}${widths.map((width) => line!.repeat(width + 2)).join(middle)}${right}`;
  const line = (cells: string[]) =>
    `${borders.side}${cells.map((cell, column) => ` ${cell}${' '.repeat(Math.max(0, widths[column]! - widthOf(cell)))} `).join(borders.side)}${borders.side}`;
  return {
    head: `${rule(borders.top)}\n${line(heading.map((text) => style.heading(text)))}`,
    row: (row) => line(cellsOf(row)),
    foot: rule(borders.bottom),
  };
}

/**
 * The history table of rows that come one at a time (a journal read in a stream, a database
 * cursor), line by line: the first historyTableSample rows are held to set the widths, the
 * rest go out as they come. Nothing for no rows.
 */
export async function* historyTableLines(
  rows: AsyncIterable<HistoryRow>,
  options: HistoryTableOptions,
): AsyncGenerator<string> {
  const sample: HistoryRow[] = [];
  let table: HistoryTable | undefined;
  for await (const row of rows) {
    if (table !== undefined) {
      yield table.row(row);
      continue;
    }
    sample.push(row);
    if (sample.length < historyTableSample) continue;
    table = historyTable(sample, options);
    yield table.head;
    for (const held of sample.splice(0)) yield table.row(held);
  }
  if (table === undefined) {
    if (sample.length === 0) return;
    table = historyTable(sample, options);
    yield table.head;
    for (const held of sample) yield table.row(held);
  }
  yield table.foot;
}
