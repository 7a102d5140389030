import { isDecimalNumber } from '../protocol/money.js';
import { type CsvColumn, spreadsheetSafe } from './csv.js';
import type { HistoryRow } from './history.js';

/** A history row as CSV writes it: the table's row, and what a spreadsheet wants besides. */
export interface HistoryCsvRow extends HistoryRow {
  agentId: string;
  /** The voucher's name and InvoiceId, where the intent names them (a dynamic voucher). */
  voucher: string | undefined;
  invoiceId: string | null;
}

// An amount as written, plain, so a spreadsheet sums it; one that is not a decimal is made-safe text.
const amountCell = (amount: string | null) =>
  amount === null || isDecimalNumber(amount) ? amount : spreadsheetSafe(amount);

// `history --format csv`: a row per transaction, every column whatever the ledger, so formulas keep their
// places. What came from a gateway or a person is spreadsheet-safe text (csv.ts).
export const historyCsvColumns: readonly CsvColumn<HistoryCsvRow>[] = [
  { header: 'When', kind: 'id', value: (row) => row.at },
  { header: 'Gateway', kind: 'text', value: (row) => row.gateway },
  { header: 'AgentID', kind: 'id', value: (row) => row.agentId },
  { header: 'Operator', kind: 'text', value: (row) => row.recordedBy?.operator },
  { header: 'Host', kind: 'text', value: (row) => row.recordedBy?.host },
  { header: 'TransactionID', kind: 'text', value: (row) => row.view.transactionId },
  { header: 'State', kind: 'id', value: (row) => row.view.state },
  { header: 'Status', kind: 'text', value: (row) => row.view.status },
  { header: 'Service', kind: 'text', value: (row) => row.view.service },
  { header: 'Account', kind: 'text', value: (row) => row.view.account },
  { header: 'Amount', kind: 'number', value: (row) => amountCell(row.view.amount) },
  { header: 'Currency', kind: 'text', value: (row) => row.view.currency },
  { header: 'InvoiceID', kind: 'text', value: (row) => row.invoiceId },
  { header: 'Voucher', kind: 'text', value: (row) => row.voucher },
  { header: 'RequestID', kind: 'text', value: (row) => row.view.requestId },
  { header: 'Message', kind: 'text', value: (row) => row.view.message },
  // Last, so the columns before them keep their places: empty unless a second person approved it.
  { header: 'RequestedBy', kind: 'text', value: (row) => row.approval?.requestedBy },
  { header: 'ApprovedBy', kind: 'text', value: (row) => row.approval?.approvedBy },
];
