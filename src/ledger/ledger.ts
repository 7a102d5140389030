import type { LedgerLocation } from '../ledger-location.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import type { BulkRun } from './bulk-run.js';
import type {
  Intent,
  IntentRecord,
  JournalEntry,
  JournalRecord,
  LedgerEntry,
  OutcomeRecord,
  Owner,
} from './records.js';

export type { Intent, JournalEntry, LedgerEntry, Owner, RecordedBy } from './records.js';

import type { TeamLedger } from './team-ledger.js';

/** Where every payment is recorded before it leaves and every answer after: a SQLite file or a
 * desk's PostgreSQL, one schema (docs/team-ledger.md). Outside ledger/ only this is seen. */
export interface Ledger {
  readonly location: LedgerLocation;
  /** Who the ledger records as operator whatever the profile says (PostgreSQL: the role logged in as). */
  readonly recordsAs?: string | undefined;
  /** The intent, recorded before a Payment may leave (throws: nothing may be sent). A TransactionID held for
   * another purchase is a conflict, for the same one a retry (spec 3 rule 2). The desk's rules and the write
   * are one atomic step in both backends: two processes at once cannot both pass. */
  recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult>;
  /** An outcome, appended. With PostgreSQL an outcome the database cannot take goes to a local
   * fallback file, delivered later; throws only when it could be kept nowhere. */
  recordOutcome(outcome: OutcomeRecord, answers?: AttemptRef): Promise<void>;
  /** How many transactions are open, by gateway and agent (reconcile names the others). */
  openOwners(filter: LedgerFilter): Promise<OwnerCount[]>;
  /** The open transactions of one gateway and agent, in batches, each claimed by this process
   * until done(): two reconcilers at once never work the same transaction at the same time. */
  claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch>;
  /** Every transaction with its latest state, in order of first intent, streamed (iterated once). */
  entries(filter: LedgerHistoryFilter): Promise<LedgerHistory>;
  /** A bulk run of one gateway and agent (bulk-run.ts): the file's rows in a table of this
   * connection's own while they are planned, and the rows each paid run keeps. */
  bulkRun(owner: Owner): Promise<BulkRun>;
  /** The payments of one gateway and agent whose latest attempt is at or after `since`, to this
   * account or by this operator, with their state: what the desk's limits and duplicate check
   * weigh (purchase/desk-guard.ts). */
  recentPayments(query: LookBackQuery): Promise<RecentPayment[]>;
  /** The payments whose first intent falls in [since, until), light (PaymentRow), in order of first intent:
   * what `reconcile --registry` compares. */
  payments(query: PaymentsQuery): AsyncIterable<readonly PaymentRow[]>;
  close(): Promise<void>;
  /** Records of an earlier agentpay's journal loaded in their order (`ledger import`): each once,
   * however often the journal is loaded; a TransactionID held for another purchase is left out. */
  importRecords(records: AsyncIterable<JournalRecord>): Promise<{ added: number; conflicts: string[] }>;
  /** That the journal at `path` was loaded whole (SQLite: open-ledger.ts then stops naming it). */
  rememberImported?(path: string): Promise<void>;
  /** Every record in the order it was recorded, as journal records (`ledger export`). */
  exportRecords(): AsyncIterable<JournalRecord>;
  /** One TransactionID as the ledger holds it (a receipt reprinted, a look-up to record): for each
   * gateway and agent that used it (only `owner`'s, when given), its latest attempt's intent and
   * its latest word (ledger/records.ts replacesOutcome). Empty when no one did. */
  transaction(transactionId: string, owner?: Owner): Promise<HeldTransaction[]>;
  /** Approvals, shifts and the desk's policy (team-ledger.ts): a PostgreSQL ledger's; a file has none. */
  readonly team?: TeamLedger | undefined;
}

export interface IntentOptions {
  /** Whether the TransactionID may be in the ledger already (--txn-id, a resumed row): the replay guard. */
  checkReplay: boolean;
  /** The desk's rules, applied where the intent is written. A retry of a TransactionID the ledger
   * holds for the same purchase passes without them: it can never pay twice (spec 3 rule 2). */
  guard?: IntentGuard | undefined;
}

/** The desk's rules as the ledger applies them (purchase/desk-guard.ts makes them). */
export interface IntentGuard {
  /** How far back the rules read, and whose payments besides the account's (an operator's daily limit). */
  since: Date;
  operator: string | undefined;
  /** Weighs the recent payments of this gateway and agent (to the intent's account, or the
   * operator's): throws to refuse (nothing is recorded); else the guards it lifted, recorded
   * with the intent ("over-limit", "allow-duplicate"). */
  decide(recent: readonly RecentPayment[], now: Date): readonly string[];
  /** Whether the rules add up payments (a daily limit): then this process's own earlier intents
   * weigh too. The duplicate check alone never needs them: a bulk file's own repeats were
   * weighed when it was planned, and a retry of its own TransactionID is no duplicate. */
  sums: boolean;
}

/** The attempt an intent recorded, where the backend names attempts (PostgreSQL: its record's
 * seq). An outcome that says which attempt it answers is known stale once a newer one went out. */
export type AttemptRef = string | undefined;

export type IntentResult =
  | { kind: 'new'; attempt?: AttemptRef }
  | { kind: 'retry'; attempt?: AttemptRef }
  | { kind: 'conflict'; earlier: IntentRecord };

export interface OwnerCount extends Owner {
  count: number;
}

/** What history asks of a ledger: LedgerFilter, and the latest state, gateway, operator and shift shown. */
export interface LedgerHistoryFilter extends LedgerFilter {
  /** The latest state; a transaction with no outcome on record counts as `unknown`. */
  state?: TransactionState | undefined;
  /** As the ledger names gateways: the base URL without trailing slashes, or "sandbox". */
  gateway?: string | undefined;
  /** Only payments this operator made (a team ledger records who made each). */
  operator?: string | undefined;
  /** Only payments that joined this shift (its seq; a team ledger's shifts). */
  shift?: string | undefined;
}

/** What history shows: the entries one at a time, iterated once, in order of first intent, with
 * who made each where known, and what a table must know before its first row. */
export interface LedgerHistory extends AsyncIterable<LedgerEntry> {
  /** The gateways of the entries to come, in order of first appearance (more than one: a Gateway column). */
  readonly gateways: readonly string[];
  /** The gateways of every transaction since `since`, whatever the other filters (named when none match). */
  readonly allGateways: readonly string[];
}

export interface ClaimedBatch {
  readonly entries: readonly JournalEntry[];
  /** An outcome learned for one of them (it answers the attempt the claim saw); written
   * at done(), with the commit that lets the claim go. Settles once it is written, kept
   * in the fallback or counted by done() as kept nowhere: what shows it waits for that. */
  record(outcome: OutcomeRecord): Promise<void>;
  /** Ends the batch: its outcomes written (or kept in the fallback), its claim let go. Returns
   * how many outcomes could be kept nowhere, with the first reason. */
  done(): Promise<{ unrecorded: number; failure?: unknown }>;
}

/** A transaction as transaction() gives it: with its latest attempt, the one an answer asked for now is for. */
export interface HeldTransaction extends JournalEntry {
  attempt: AttemptRef;
}

export interface LedgerFilter {
  /** Only transactions whose intent was written at or after this instant. */
  since?: Date | undefined;
}

/** One of the recent payments of one gateway and agent, for the desk's limits and duplicate check
 * (purchase/desk-guard.ts): a payment is as recent as its latest attempt (an index on the
 * attempts' time finds them). */
export interface RecentPayment {
  /** The latest attempt's intent: `at` is when it was made. */
  intent: IntentRecord;
  /** By the ledger's rules (records.ts), from the answers after that attempt; none yet: undefined. */
  state: TransactionState | undefined;
}

export interface LookBackQuery {
  gateway: string;
  agentId: string;
  since: Date;
  /** Only payments to these accounts (what the account's limit and the duplicate check weigh)... */
  accounts: readonly string[];
  /** ...or made by this operator (what the operator's daily limit weighs; none when no such limit is set). */
  operator: string | undefined;
}

/** The payments of a span of time, light: what registry reconciliation compares (file/payments.ts reads them in one pass). */
export interface PaymentsQuery {
  /** Transactions whose first intent (of this span) is at or after `since` and before `until`. */
  since: Date;
  until: Date;
  /** Only this gateway's, or this agent's, when given. */
  gateway?: string | undefined;
  agentId?: string | undefined;
}

export interface PaymentRow {
  transactionId: string;
  account: string;
  amount: string;
  /** When its first intent was written. */
  at: string;
  /** The latest word (records.ts replacesOutcome); `unknown` with no outcome on record. */
  state: TransactionState;
}
