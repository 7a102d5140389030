import { noPaymentSent } from '../../errors.js';
import type {
  HeldTransaction,
  LedgerEntry,
  LedgerFilter,
  LedgerHistory,
  LedgerHistoryFilter,
  LookBackQuery,
  Owner,
  OwnerCount,
  PaymentRow,
  PaymentsQuery,
  RecentPayment,
} from '../ledger.js';
import type { JournalRecord } from '../records.js';
import {
  intentOfRow,
  inWindow,
  latestOutcome,
  latestWordOf,
  outcomeOfRow,
  type Query,
  type Row,
  recordsByTransaction,
  text,
} from './rows.js';

// A ledger's reads in either database (history, export, a span, one transaction, open owners, the look-back),
// each given the dialect's statements and the query to send them with.

/** The statements the reads send, in a dialect's spelling ($1.. placeholders in both). */
export interface ReadStatements {
  transactionPage: string;
  gatewaysOf: string;
  recordsOf: string;
  recordPage: string;
  recentTransactions: string;
  transactionsById: string;
  openOwners: string;
}

export interface SqlReader {
  query: Query;
  sql: ReadStatements;
}

/** How many transactions history reads at once. */
const pageSize = 250;

export async function entriesOf({ query, sql }: SqlReader, filter: LedgerHistoryFilter): Promise<LedgerHistory> {
  const since = filter.since ?? null;
  const operator = filter.operator ?? null;
  const gatewaysFor = async (operatorFilter: string | null, gateway: string | null) =>
    (await query(sql.gatewaysOf, [since, operatorFilter, gateway])).map((row) => text(row.gateway));
  const allGateways = await gatewaysFor(null, null);
  // The same query when nothing but --since filters: asked once. The latest state is known only
  // row by row: with --state, the rows are read once first for the gateways of those shown.
  const gateways =
    filter.state !== undefined
      ? await gatewaysShown({ query, sql }, filter)
      : operator === null && filter.gateway === undefined
        ? allGateways
        : await gatewaysFor(operator, filter.gateway ?? null);
  const pages = entryPages({ query, sql }, filter);
  return { gateways, allGateways, [Symbol.asyncIterator]: () => pages };
}

/** The gateways of the entries a filter shows, in order of first appearance, read as the entries are. */
async function gatewaysShown(db: SqlReader, filter: LedgerHistoryFilter): Promise<string[]> {
  const seen = new Set<string>();
  for await (const { intent } of entryPages(db, filter)) seen.add(intent.gateway);
  return [...seen];
}

/** Transactions a page at a time (keyset on their seq), each with its latest state: memory follows the page. */
async function* entryPages({ query, sql }: SqlReader, filter: LedgerHistoryFilter): AsyncGenerator<LedgerEntry> {
  let after = '0';
  for (;;) {
    const page = await query(sql.transactionPage, [
      after,
      pageSize,
      filter.since ?? null,
      filter.operator ?? null,
      filter.gateway ?? null,
      filter.shift ?? null,
    ]);
    if (page.length === 0) return;
    after = text(page.at(-1)!.seq);
    const records = await query(sql.recordsOf, [page.map((row) => row.seq)]);
    const bySeq = recordsByTransaction(records);
    for (const row of page) {
      const records = inWindow(bySeq.get(text(row.seq)) ?? [], filter.since);
      // As the journal shows it: from its first attempt in the window, at that attempt's time.
      // The first attempt's marks (who asked and who approved, ledger/approval-marks.ts) go with it.
      const first = records.find((record) => record.kind === 'attempt');
      const intent = intentOfRow(
        first?.overrides === undefined ? row : { ...row, overrides: first.overrides },
        filter.since === undefined ? row.at : records[0]?.at,
      );
      const outcome = latestOutcome(intent, records);
      // A transaction with no outcome on record counts as unknown (ledger.ts LedgerHistoryFilter).
      if (filter.state !== undefined && (outcome?.view.state ?? 'unknown') !== filter.state) continue;
      yield { intent, outcome, recordedBy: { operator: text(row.operator), host: text(row.host) } };
    }
  }
}

/** Every record, in the order it was recorded, as journal records (an attempt as an intent line). */
export async function* exportedRecords({ query, sql }: SqlReader): AsyncGenerator<JournalRecord> {
  let after = '0';
  for (;;) {
    const page = await query(sql.recordPage, [after, pageSize]);
    if (page.length === 0) return;
    after = text(page.at(-1)!.record_seq);
    for (const row of page) {
      const intent = intentOfRow(row, row.record_at);
      yield row.kind === 'attempt' ? intent : outcomeOfRow(intent, row.record_at, row.source, row.view);
    }
  }
}

/** The span's transactions as history pages them, cut to the agent and the span's end. */
export async function* paymentsOf(
  db: SqlReader,
  { since, until, gateway, agentId }: PaymentsQuery,
): AsyncGenerator<PaymentRow[]> {
  let batch: PaymentRow[] = [];
  for await (const { intent, outcome } of entryPages(db, { since, gateway })) {
    if ((agentId !== undefined && intent.agentId !== agentId) || Date.parse(intent.at) >= until.getTime()) continue;
    batch.push({
      transactionId: intent.transactionId,
      account: intent.account,
      amount: intent.amount,
      at: intent.at,
      state: outcome?.view.state ?? 'unknown',
    });
    if (batch.length === pageSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** The transactions with this id (of the owner, when given), each as its latest attempt's intent and latest word. */
export async function transactionsById(
  { query, sql }: SqlReader,
  transactionId: string,
  owner: Owner | undefined,
): Promise<HeldTransaction[]> {
  const rows = await query(sql.transactionsById, [transactionId, owner?.gateway ?? null, owner?.agentId ?? null]);
  if (rows.length === 0) return [];
  return latestWordOf(rows, await query(sql.recordsOf, [rows.map((row) => row.seq)]));
}

/** Accounts are sent this many at a time: a query's parameter is a list the server holds. */
const accountsSent = 10_000;

// The payments a look-back weighs, `queryNow` in a turn held already. A long list of accounts is sent a slice at
// a time, and what two slices both return is kept once, oldest first.
export async function recentPaymentsOf(now: SqlReader, query: LookBackQuery): Promise<RecentPayment[]> {
  const { accounts } = query;
  if (accounts.length <= accountsSent) return recentOf(now, query, accounts);
  const found = new Map<string, RecentPayment>();
  for (let start = 0; start < accounts.length; start += accountsSent)
    for (const payment of await recentOf(now, query, accounts.slice(start, start + accountsSent)))
      found.set(payment.intent.transactionId, payment);
  return [...found.values()].sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
}

async function recentOf(
  { query: queryNow, sql }: SqlReader,
  query: Omit<LookBackQuery, 'accounts'>,
  accounts: readonly string[],
): Promise<RecentPayment[]> {
  // One round trip before the intent: each transaction comes with its records (as JSON, their times as text).
  const rows = await queryNow(
    sql.recentTransactions,
    [query.gateway, query.agentId, query.since.toISOString(), query.operator ?? null, [...accounts]],
    noPaymentSent(),
  );
  const records = rows.flatMap((row) =>
    ((row.records as Row[] | null) ?? []).map((record) => ({ ...record, at: new Date(String(record.at)) })),
  );
  const entries = latestWordOf(rows, records);
  return entries.map(({ intent, outcome }) => ({ intent, state: outcome?.view.state }));
}

/** How many transactions are open, by gateway and agent (reconcile names the others). */
export async function openOwnersOf({ query, sql }: SqlReader, filter: LedgerFilter): Promise<OwnerCount[]> {
  const rows = await query(sql.openOwners, [filter.since ?? null]);
  return rows.map((row) => ({ gateway: text(row.gateway), agentId: text(row.agent_id), count: Number(row.count) }));
}
