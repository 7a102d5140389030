import { AgentpayError, VoucherChoiceError } from '../../../errors.js';
import type { GatewayClient } from '../../../gateway/client.js';
import type { JournalEntry, Ledger, Owner, RecentPayment } from '../../../ledger/ledger.js';
import { checkPurchase } from '../../../purchase/account-check.js';
import { type LookBack, lookBackOf } from '../../../purchase/desk-rules.js';
import { voucherOf } from '../../../purchase/voucher-choice.js';
import type { BadRow } from '../../../render/bulk.js';
import type { Settings } from '../../../settings/resolve.js';
import { forEachOrdered } from '../../ordered-pool.js';
import type { BulkRows } from './bulk-rows.js';
import type { OrderRow } from './order-row.js';
import type { OrderStore } from './order-store.js';
import type { ResultRow } from './results-file.js';

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
  /** The ledger's entry for the TransactionID, when it has one. */
  entry: JournalEntry | undefined;
  paidAmount: string | undefined;
  paidInvoiceId: string | undefined;
  voucher: string | undefined;
  /** The desk's guards lifted for this row: "over-limit", "allow-duplicate". */
  lifted: string[];
}

/** A failure without an answer from the gateway (status null) is "not sent": the row is paid again, with the same TransactionID. */
const isGatewaysFailure = (entry: JournalEntry | undefined) =>
  entry?.outcome?.view.state === 'failed' && entry.outcome.view.status !== null;

export function bulkRowOf(order: OrderRow, prior: ResultRow | undefined, entry: JournalEntry | undefined): BulkRow {
  const state = entry?.outcome?.view.state;
  const final =
    state === 'success' ||
    isGatewaysFailure(entry) ||
    (entry === undefined && (prior?.state === 'success' || prior?.state === 'failed'));
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
 * One reading of the ledger for the whole file. Resuming: the entries of the earlier run's
 * TransactionIDs (of any age), and the recent payments from the same reading. A new file: only
 * what the desk's rules weigh (desk-rules.ts lookBackOf), read from the journal's end back: the
 * recent payments to the file's accounts, and the operator's when a daily limit is set on them.
 */
export async function readLedger(
  ledger: Ledger,
  owner: Owner,
  ids: { readonly size: number; has(id: string): boolean },
  look: LookBack | undefined,
  orders: OrderStore,
): Promise<{ byId: Map<string, JournalEntry>; recent: RecentPayment[] }> {
  const byId = new Map<string, JournalEntry>();
  if (ids.size === 0)
    return { byId, recent: look === undefined ? [] : await recentToAccounts(ledger, owner, look, orders) };
  const recent: RecentPayment[] = [];
  for await (const entry of await ledger.entries({ gateway: owner.gateway })) {
    const { intent } = entry;
    if (intent.agentId !== owner.agentId || intent.gateway !== owner.gateway) continue;
    if (ids.has(intent.transactionId)) byId.set(intent.transactionId, entry);
    if (look !== undefined && Date.parse(intent.at) >= look.since.getTime())
      recent.push({ intent, state: entry.outcome?.view.state });
  }
  return { byId, recent };
}

/** The file's distinct accounts are asked for this many at a time: a look-back holds each asked account twice. */
const accountsAsked = 10_000;

/**
 * The recent payments to the file's accounts (and the operator's, when a daily limit is set on
 * them), the accounts asked for a slice at a time so that no list of them all is made. An
 * account in two slices, or a payment of the operator's to one of them, is met twice: each
 * payment is kept once.
 */
async function recentToAccounts(
  ledger: Ledger,
  owner: Owner,
  look: LookBack,
  orders: OrderStore,
): Promise<RecentPayment[]> {
  const query = { gateway: owner.gateway, agentId: owner.agentId, since: look.since };
  const recent =
    look.operator === undefined ? [] : await ledger.recentPayments({ ...query, accounts: [], operator: look.operator });
  const kept = new Set(recent.map((payment) => payment.intent.transactionId));
  let accounts = new Set<string>();
  const ask = async () => {
    for (const payment of await ledger.recentPayments({ ...query, accounts: [...accounts], operator: undefined })) {
      if (kept.has(payment.intent.transactionId)) continue;
      kept.add(payment.intent.transactionId);
      recent.push(payment);
    }
    accounts = new Set();
  };
  for (let index = 0; index < orders.length; index++) {
    accounts.add(orders.accountOf(index));
    if (accounts.size === accountsAsked) await ask();
  }
  if (accounts.size > 0) await ask();
  return recent.sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
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
