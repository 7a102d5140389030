import { type Catalogue, en } from '../i18n/en.js';
import type { TransactionView } from '../protocol/transaction-view.js';
import { layoutReceipt, type ReceiptRow } from './receipt-layout.js';
import type { Style } from './style.js';
import { receiptHeading, receiptRows, transactionJson } from './transaction.js';

// A transaction's receipt as the ledger keeps it (`agentpay receipt`, `--receipt`): pay's receipt with the
// voucher, who paid and when. What older records lack is left out.
export interface LedgerReceipt {
  view: TransactionView;
  /** The voucher's name (a dynamic voucher's InvoiceName). */
  voucher?: string | undefined;
  operator?: string | undefined;
  /** When the payment was recorded, ISO 8601 (its latest attempt). */
  at?: string | undefined;
  /** A payment a supervisor approved (ledger/approval-marks.ts): who asked, who approved. */
  requestedBy?: string | undefined;
  approvedBy?: string | undefined;
}

interface ReceiptLayout {
  /** Columns no line may exceed (a receipt printer's); none: values on one line each. */
  width?: number | undefined;
  /** The local time's offset from UTC at `at`, in minutes (east positive): the time is shown in it. */
  utcOffsetMinutes?: number | undefined;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

// `2025-03-04 18:05:06 +03:00` (`04.03.2025 …` in Russian) at `offsetMinutes`; a table leaves the offset out.
export function localTimeText(iso: string, offsetMinutes: number, said: Catalogue, withOffset = true): string {
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) return iso;
  const shifted = new Date(instant + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(offsetMinutes);
  return said.localTime({
    year: shifted.slice(0, 4),
    month: shifted.slice(5, 7),
    day: shifted.slice(8, 10),
    time: shifted.slice(11, 19),
    offset: withOffset ? `${sign}${twoDigits(Math.floor(offset / 60))}:${twoDigits(offset % 60)}` : undefined,
  });
}

/** The instant `iso` in this machine's local time, as localTimeText writes it. */
export const machineLocalTimeText = (iso: string, said: Catalogue, withOffset = true): string =>
  localTimeText(iso, -new Date(iso).getTimezoneOffset(), said, withOffset);

export function renderLedgerReceipt(
  receipt: LedgerReceipt,
  style: Style,
  layout: ReceiptLayout = {},
  said: Catalogue = en,
): string {
  const rows = receiptRows(receipt.view, style, said);
  const { labels } = said.receipt;
  if (receipt.voucher !== undefined) {
    const afterAccount = rows.findIndex(([label]) => label === labels.account) + 1;
    rows.splice(afterAccount, 0, [labels.voucher, [{ text: receipt.voucher || said.receipt.noName }]]);
  }
  const extra: ReceiptRow[] = [];
  if (receipt.at !== undefined)
    extra.push([labels.time, [{ text: localTimeText(receipt.at, layout.utcOffsetMinutes ?? 0, said) }]]);
  if (receipt.operator !== undefined) extra.push([labels.operator, [{ text: receipt.operator }]]);
  if (receipt.requestedBy !== undefined) extra.push([said.approvals.requestedBy, [{ text: receipt.requestedBy }]]);
  if (receipt.approvedBy !== undefined) extra.push([said.approvals.approvedBy, [{ text: receipt.approvedBy }]]);
  return layoutReceipt(receiptHeading(receipt.view, style, 'payment', said), [...rows, ...extra], style, layout.width);
}

/** The transaction JSON (docs/commands.md "JSON output"), with the voucher, operator and time: null when not recorded. */
export function ledgerReceiptJson(receipt: LedgerReceipt): string {
  return transactionJson(receipt.view, {
    voucher: receipt.voucher ?? null,
    operator: receipt.operator ?? null,
    at: receipt.at ?? null,
    ...(receipt.approvedBy === undefined ? {} : { requestedBy: receipt.requestedBy, approvedBy: receipt.approvedBy }),
  });
}
