import { type Catalogue, en } from '../i18n/en.js';
import type { ApprovalMarks } from '../ledger/approval-marks.js';
import type { TransactionView } from '../protocol/transaction-view.js';
import { machineLocalTimeText } from './receipt.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';
import { type TableColumn, tableLayout } from './table.js';
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
  /** The columns the table may take (Output.tableWidth); undefined: as wide as its cells. */
  width?: number | undefined;
  /** Told, once the widths are set, which columns were left out for want of width. */
  onHidden?: ((headings: readonly string[]) => void) | undefined;
}

/** The history table line by line, so that a journal of any size streams (history/run.ts). */
export interface HistoryTable {
  /** The top border and the heading row. */
  head: string;
  row(row: HistoryRow): string;
  /** The bottom border. */
  foot: string;
  /** The headings of the columns left out for want of width. */
  hidden: string[];
}

/** Rows the widths are taken from: the first ones; later rows wider than their column wrap in it, never cut. */
const historyTableSample = 1000;

// The journal as a table, a row per transaction; a Gateway column when rows come from several (a TransactionID
// means nothing across them). Widths fit the heading and `sample`; too narrow drops RequestID, the team's
// columns, Service, Gateway and When, in that order.
export function historyTable(sample: readonly HistoryRow[], options: HistoryTableOptions): HistoryTable {
  const { style, showGateway, showRecordedBy = false, said = en, width } = options;
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
  const columns: TableColumn[] = [
    { heading: head.when, dropOrder: 6 },
    ...(showGateway ? [{ heading: head.gateway, dropOrder: 5 }] : []),
    ...(showRecordedBy
      ? [
          { heading: head.operator, dropOrder: 3 },
          { heading: head.host, dropOrder: 1 },
          { heading: head.approvedBy, dropOrder: 2 },
        ]
      : []),
    { heading: head.transactionId, whole: true },
    { heading: head.state },
    { heading: head.service, dropOrder: 4 },
    { heading: head.account },
    { heading: head.amount, whole: true },
    { heading: head.requestId, dropOrder: 0 },
  ];
  const layout = tableLayout(columns, sample.map(cellsOf), { style, width });
  return {
    head: layout.head.join('\n'),
    row: (row) => layout.row(cellsOf(row)).join('\n'),
    foot: layout.foot,
    hidden: layout.hidden,
  };
}

// The history table of rows that come one at a time: the first historyTableSample rows set the widths, the rest
// go out as they come. Nothing for no rows.
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
    options.onHidden?.(table.hidden);
    yield table.head;
    for (const held of sample.splice(0)) yield table.row(held);
  }
  if (table === undefined) {
    if (sample.length === 0) return;
    table = historyTable(sample, options);
    options.onHidden?.(table.hidden);
    yield table.head;
    for (const held of sample) yield table.row(held);
  }
  yield table.foot;
}
