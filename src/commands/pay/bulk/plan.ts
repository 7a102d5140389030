import { AgentpayError, VoucherChoiceError } from '../../../errors.js';
import type { GatewayClient } from '../../../gateway/client.js';
import type { Ledger, Owner, RecentPayment } from '../../../ledger/ledger.js';
import type { CodeTable } from '../../../protocol/codes.js';
import { checkPurchase } from '../../../purchase/account-check.js';
import { type LookBack, lookBackOf } from '../../../purchase/desk-rules.js';
import { voucherOf } from '../../../purchase/voucher-choice.js';
import type { BadRow } from '../../../render/bulk.js';
import type { Settings } from '../../../settings/resolve.js';
import { forEachOrdered } from '../../ordered-pool.js';
import type { BulkRows } from './bulk-rows.js';
import { FileAccounts } from './file-accounts.js';
import type { OrderRow } from './order-row.js';
import type { OrderStore } from './order-store.js';
import type { ResultRow } from './results-file.js';
import type { PriorRows } from './results-read.js';
import { isGatewaysFailure, LedgerRows, type LedgerWord, mayBePaid, readResumeLedger } from './resume-ledger.js';

/**
 * The plan of a bulk run, made before any Payment leaves: where each row stands after an earlier
 * run (final, open, or to pay), each row's voucher from a fresh AccountCheck, and the desk's
 * limits and duplicate check over the whole file (purchase/desk-rules.ts, the rules `pay` keeps
 * for one payment, applied to the file's rows in order on top of the ledger's).
 */
export interface BulkRow extends OrderRow {
  /** From the results file of an earlier run, or given before any Payment leaves. */
  transactionId: string | undefined;
  /** final: skipped; open: an intent in the ledger without a final word (settled by Status); new: to pay. */
  start: 'final' | 'open' | 'new';
  prior: ResultRow | undefined;
  /** The ledger's entry for the TransactionID, when it has one (what the run reads of it: resume-ledger.ts). */
  entry: LedgerWord | undefined;
  paidAmount: string | undefined;
  paidInvoiceId: string | undefined;
  voucher: string | undefined;
  /** The desk's guards lifted for this row: "over-limit", "allow-duplicate". */
  lifted: string[];
}

export function bulkRowOf(
  order: OrderRow,
  prior: ResultRow | undefined,
  entry: LedgerWord | undefined,
  codes: CodeTable,
): BulkRow {
  const view = entry?.outcome?.view;
  const final =
    view?.state === 'success' ||
    (view !== undefined && isGatewaysFailure(view.state, view.status, codes)) ||
    (entry === undefined &&
      (prior?.state === 'success' || isGatewaysFailure(prior?.state, prior?.status ?? null, codes)));
  const start = final ? 'final' : entry !== undefined ? 'open' : 'new';
  // Spelled out, not spread: a file of many rows makes one of these per row, mostly before V8 has optimised anything.
  return {
    line: order.line,
    key: order.key,
    service: order.service,
    account: order.account,
    currency: order.currency,
    invoiceId: order.invoiceId,
    invoicePosition: order.invoicePosition,
    amount: order.amount,
    transactionId: prior?.transactionId,
    start,
    prior,
    entry,
    paidAmount: start === 'new' ? order.amount : (entry?.intent.amount ?? prior?.paidAmount),
    paidInvoiceId: start === 'new' ? order.invoiceId : (entry?.intent.invoiceId ?? prior?.paidInvoiceId ?? undefined),
    voucher: entry?.intent.voucher ?? prior?.voucher,
    lifted: [],
  };
}

/**
 * What the run reads of the ledger for the whole file. Resuming: the entries of the earlier
 * run's TransactionIDs, of any age (resume-ledger.ts). Then only what the desk's rules weigh
 * (desk-rules.ts lookBackOf), read from the journal's end back: the recent payments to the
 * accounts of the rows that may still be paid (all of a new file's; none of a finished run's),
 * and the operator's when a daily limit is set on them.
 */
export async function readLedger(
  ledger: Ledger,
  owner: Owner,
  prior: PriorRows | undefined,
  look: LookBack | undefined,
  orders: OrderStore,
  codes: CodeTable,
): Promise<{ held: LedgerRows; recent: RecentPayment[] }> {
  const resumed = prior !== undefined && prior.size > 0 ? prior : undefined;
  const held =
    resumed === undefined ? new LedgerRows(orders, 0) : await readResumeLedger(ledger, owner, resumed, orders);
  const toPay = resumed === undefined ? undefined : (index: number) => mayBePaid(resumed, index, codes);
  const recent = look === undefined ? [] : await recentToAccounts(ledger, owner, look, orders, toPay);
  return { held, recent };
}

/**
 * The recent payments to the accounts of the file's rows (those `rows` chooses), and the
 * operator's when a daily limit is set on them, in one look-back: the ledger asks the file's
 * own packed rows whether an account is one of them (file-accounts.ts), rather than being
 * handed lists of them.
 */
async function recentToAccounts(
  ledger: Ledger,
  owner: Owner,
  look: LookBack,
  orders: OrderStore,
  rows: ((index: number) => boolean) | undefined,
): Promise<RecentPayment[]> {
  const accounts = new FileAccounts(orders, rows);
  try {
    return await ledger.recentPayments({ ...owner, since: look.since, accounts, operator: look.operator });
  } finally {
    accounts.release();
  }
}

/** What the desk's rules read of the ledger for these rows (desk-rules.ts lookBackOf). */
export function lookBackFor(
  settings: Pick<Settings, 'desk' | 'operator'>,
  rows: OrderStore,
  now: Date,
): LookBack | undefined {
  const currencies = new Set<string>();
  for (let index = 0; index < rows.length; index++) currencies.add(rows.currencyOf(index));
  return lookBackOf(settings.desk, settings.operator.value, currencies, settings.desk.duplicateWindowMs.value, now);
}

/**
 * spec 4.1: a fresh AccountCheck for every dynamic row to pay, `concurrency` at a time; each gets
 * its voucher passed whole (InvoiceId, OrderAmount, name). A refused check, an InvoiceId not in
 * the list or an amount that is not its OrderAmount makes the row bad. A gateway that cannot be
 * reached (or answers what cannot be read) ends the run: nothing was paid.
 */
export async function resolveVouchers(
  client: GatewayClient,
  rows: BulkRows,
  concurrency: number,
  stopped: () => boolean,
): Promise<BadRow[]> {
  const problems: BadRow[] = [];
  const column = (row: BulkRow) => (row.invoiceId === undefined ? 'invoice' : 'invoice-id');
  await forEachOrdered(
    (function* () {
      for (let index = 0; index < rows.length && !stopped(); index++) {
        if (rows.startOf(index) === 'new' && rows.orders.namesVoucher(index)) yield { row: rows.get(index), index };
      }
    })(),
    concurrency,
    async ({ row, index }) => {
      try {
        const { vouchers } = await checkPurchase(client, row);
        const voucher = voucherOf(vouchers, row);
        row.paidAmount = voucher.orderAmount;
        row.paidInvoiceId = voucher.invoiceId;
        row.voucher = voucher.name;
        rows.put(index, row);
      } catch (error) {
        if (!(error instanceof AgentpayError) || error.exitCode > 2) throw error;
        // Said for the row, under its column: the reason alone ("nothing was sent" is the file's, once).
        const choice = error instanceof VoucherChoiceError ? error : undefined;
        problems.push({
          line: row.line,
          column: choice?.field === 'amount' ? 'amount' : column(row),
          message: choice?.reason ?? error.message,
        });
      }
    },
    () => undefined,
  );
  return problems;
}
