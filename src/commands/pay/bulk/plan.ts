import { AgentpayError } from '../../../errors.js';
import type { GatewayClient } from '../../../gateway/client.js';
import { t } from '../../../i18n/current.js';
import type { Intent, JournalEntry, Ledger, Owner, RecentPayment } from '../../../ledger/ledger.js';
import { addDecimals } from '../../../protocol/money.js';
import { checkPurchase } from '../../../purchase/account-check.js';
import {
  breachText,
  duplicatesOf,
  duplicateText,
  type LookBack,
  limitBreaches,
  lookBackOf,
} from '../../../purchase/desk-rules.js';
import { voucherOf } from '../../../purchase/voucher-choice.js';
import type { BadRow } from '../../../render/bulk.js';
import type { Settings } from '../../../settings/resolve.js';
import { forEachOrdered } from '../../ordered-pool.js';
import type { BulkRows } from './bulk-rows.js';
import { FirstSeen } from './first-seen.js';
import type { OrderStore } from './order-store.js';
import type { ResultRow } from './results-file.js';
import type { OrderRow } from './rows.js';

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
  ids: ReadonlySet<string>,
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
    accounts.add(orders.get(index).account);
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
  for (const row of rows) currencies.add(row.currency);
  return lookBackOf(settings.desk, settings.operator.value, currencies, settings.desk.duplicateWindowMs.value, now);
}

type DeskContext = { settings: Pick<Settings, 'desk' | 'operator'> };
interface FilePolicy {
  overLimit: boolean;
  allowDuplicate: boolean;
}

/** What makes two rows the same purchase (desk-rules.ts duplicatesOf, within the file). */
const purchaseKey = (row: OrderRow) =>
  JSON.stringify([
    row.service,
    row.account,
    row.currency,
    row.invoiceId ?? null,
    row.invoicePosition ?? null,
    row.amount ?? null,
  ]);

/** The rows that repeat an earlier row's purchase, each with the line of the first: few, so kept in a Map. */
export function repeatedPurchases(orders: OrderStore): Map<number, number> {
  const firstOf = new FirstSeen((index) => purchaseKey(orders.get(index)), orders.length);
  const repeats = new Map<number, number>();
  for (let index = 0; index < orders.length; index++) {
    const first = firstOf.firstOrAdd(index, purchaseKey(orders.get(index)));
    if (first !== -1) repeats.set(index, orders.lineOf(first));
  }
  return repeats;
}

/**
 * The desk's rules over the rows to pay, in file order, each weighed with the ledger's payments
 * and the file's rows before it (rows whose amount is not known yet are left for the second
 * pass, after the AccountChecks). Sets each row's lifted guards; returns the rows refused.
 */
export function deskProblems(
  context: DeskContext,
  owner: Owner,
  rows: BulkRows,
  repeats: ReadonlyMap<number, number>,
  recent: readonly RecentPayment[],
  policy: FilePolicy,
  now: Date,
): BadRow[] {
  const { desk } = context.settings;
  const operator = context.settings.operator.value;
  const problems: BadRow[] = [];
  const windowMs = desk.duplicateWindowMs.value;
  const windowStart = new Date(now.getTime() - windowMs);
  const byAccount = new Map<string, RecentPayment[]>();
  for (const payment of recent) {
    const payments = byAccount.get(payment.intent.account);
    if (payments === undefined) byAccount.set(payment.intent.account, [payment]);
    else payments.push(payment);
  }
  const byOperator = recent.filter((payment) => payment.intent.operator === operator);
  // The file's rows so far, per currency: all of them, and per account.
  const sums = new Map<string, { all: string; byAccount: Map<string, string> }>();
  const at = now.toISOString();
  // Which rules hold for a currency, asked once per currency rather than once per row.
  const rulesByCurrency = new Map<string, { limited: boolean; daily: boolean }>();
  const rulesOf = (currency: string) => {
    let rules = rulesByCurrency.get(currency);
    if (rules === undefined) {
      const daily =
        desk.limit('dailyLimit', currency) !== undefined || desk.limit('accountDailyLimit', currency) !== undefined;
      rules = { daily, limited: daily || desk.limit('maxAmount', currency) !== undefined };
      rulesByCurrency.set(currency, rules);
    }
    return rules;
  };
  const synthetic = (account: string, amount: string, currency: string): RecentPayment => ({
    intent: {
      kind: 'intent',
      transactionId: '',
      gateway: owner.gateway,
      agentId: owner.agentId,
      service: '',
      account,
      amount,
      currency,
      invoiceId: null,
      at,
      operator,
    },
    state: undefined,
  });
  for (let index = 0; index < rows.length; index++) {
    const row = rows.get(index);
    row.lifted = [];
    const first = repeats.get(index);
    if (first === undefined) {
      // The first row of its purchase.
    } else if (policy.allowDuplicate) row.lifted.push('allow-duplicate');
    else
      problems.push({
        line: row.line,
        column: undefined,
        message: `the same purchase as line ${first} (give --allow-duplicate if both are meant)`,
      });
    weighRow(row);
    rows.put(index, row);
  }
  return problems;

  function weighRow(row: BulkRow): void {
    if (row.start !== 'new' || row.paidAmount === undefined) return;
    const intent: Intent = {
      transactionId: row.transactionId ?? `line ${row.line}`,
      gateway: owner.gateway,
      agentId: owner.agentId,
      service: row.service,
      account: row.account,
      amount: row.paidAmount,
      currency: row.currency,
      invoiceId: row.paidInvoiceId ?? null,
    };
    const mine = byAccount.get(row.account) ?? [];
    const { limited, daily } = rulesOf(row.currency);
    const so = sums.get(row.currency) ?? { all: '0', byAccount: new Map<string, string>() };
    const accountSum = so.byAccount.get(row.account) ?? '0';
    if (limited) {
      const others = daily ? addDecimals(so.all, `-${accountSum}`) : '0';
      const weighed = daily
        ? [
            ...new Set([...mine, ...byOperator]),
            synthetic(row.account, accountSum, row.currency),
            synthetic(`${row.account} `, others, row.currency),
          ]
        : [];
      const breaches = limitBreaches(desk, intent, operator, weighed, now);
      if (breaches.length > 0 && !policy.overLimit)
        problems.push({
          line: row.line,
          column: 'amount',
          message: t().bulk.cell.overLimit(breaches.map((breach) => breachText(breach)).join('; ')),
        });
      else if (breaches.length > 0) row.lifted.push('over-limit');
    }
    const duplicates = windowMs > 0 && mine.length > 0 ? duplicatesOf(intent, mine, windowStart) : [];
    if (duplicates.length > 0 && !policy.allowDuplicate) {
      problems.push({
        line: row.line,
        column: undefined,
        message: t().bulk.cell.duplicate(
          duplicates.map((payment) => duplicateText(payment, now, t(), 'object')).join('; '),
        ),
      });
    } else if (duplicates.length > 0 && !row.lifted.includes('allow-duplicate')) row.lifted.push('allow-duplicate');
    // The file's sums so far weigh only against a daily limit.
    if (daily) {
      so.all = addDecimals(so.all, row.paidAmount);
      so.byAccount.set(row.account, addDecimals(accountSum, row.paidAmount));
      sums.set(row.currency, so);
    }
  }
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
        if (rows.startOf(index) !== 'new') continue;
        const row = rows.get(index);
        if (row.invoiceId !== undefined || row.invoicePosition !== undefined) yield { row, index };
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
        const message = error.message.replace(/[;,] no payment was sent$/, '');
        problems.push({
          line: row.line,
          column: message.startsWith('--amount') ? 'amount' : column(row),
          message: message.replace(/^--amount/, 'amount'),
        });
      }
    },
    () => undefined,
  );
  return problems;
}
