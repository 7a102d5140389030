import { hostname } from 'node:os';
import { noPaymentSent } from '../../errors.js';
import type { LedgerLocation } from '../../ledger-location.js';
import type { BulkRun } from '../bulk-run.js';
import { ClaimQueue } from '../claim-queue.js';
import type {
  AttemptRef,
  ClaimedBatch,
  HeldTransaction,
  Intent,
  IntentOptions,
  IntentResult,
  Ledger,
  LedgerFilter,
  LedgerHistory,
  LedgerHistoryFilter,
  LookBackQuery,
  Owner,
  OwnerCount,
  PaymentRow,
  PaymentsQuery,
  RecentPayment,
  RecordedBy,
} from '../ledger.js';
import type { JournalRecord, OutcomeRecord } from '../records.js';
import { openBulkRun } from '../sql/bulk-runs.js';
import { importJournalRecords } from '../sql/import-records.js';
import * as reads from '../sql/reads.js';
import { claimedEntriesOf, text } from '../sql/rows.js';
import type { LedgerPolicy, TeamLedger } from '../team-ledger.js';
import { approvalsOf } from './approvals.js';
import { bulkStatements, inTransaction } from './bulk-queries.js';
import { type IntentRecorder, insertOrRetry, settleClaims } from './claims.js';
import { connectLedger, letGo } from './connect.js';
import { deliverFallback } from './deliver-fallback.js';
import { fallbackOf } from './fallback.js';
import { importStoreOf } from './import-store.js';
import { OutcomeWriter } from './outcome-writer.js';
import { ledgerPolicyOf } from './policy.js';
import * as sql from './queries.js';
import { ensureSchema } from './schema.js';
import { shiftsOf } from './shifts.js';
import { ConnectionTurn } from './turn.js';

/** How many open transactions one claim takes. */
const claimSize = 500;

export interface PostgresLedgerOptions {
  env: NodeJS.ProcessEnv;
  operator: string;
  stateDirectory: string;
  /** A message for the person (delivered fallback outcomes, an outcome kept in the fallback). */
  note(message: string): void;
}

/** The team ledger in PostgreSQL (docs/team-ledger.md), one connection a command. Opening it
 * applies missing migrations and delivers what this machine kept while the database was away. */
export class PostgresLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'postgres' };
  private readonly turn: ConnectionTurn;
  private by: RecordedBy;
  /** The operator role this connection is (ledger.ts recordsAs), undefined for another database user. */
  recordsAs: string | undefined;
  private readonly outcomes: OutcomeWriter;
  /** What the claim path (claims.ts) needs of this ledger. */
  private readonly recorder: IntentRecorder;
  private readonly claims = new ClaimQueue((batch) => this.turn.run(() => settleClaims(this.recorder, batch)));
  readonly team: TeamLedger;
  /** The reads (sql/reads.ts) in this dialect, each query in the connection's turn. */
  private readonly reader: reads.SqlReader;

  private constructor(
    location: LedgerLocation & { kind: 'postgres' },
    turn: ConnectionTurn,
    options: PostgresLedgerOptions,
  ) {
    this.location = location;
    this.turn = turn;
    this.by = { operator: options.operator, host: hostname() };
    const fallback = fallbackOf(options.stateDirectory, location.shown);
    this.outcomes = new OutcomeWriter(turn, fallback, () => this.by, options.note, location.shown);
    const { connection, queryNow, query } = turn;
    this.recorder = { connection, shown: location.shown, by: this.by, queryNow };
    this.reader = { query, sql: sql.reads };
    this.team = { approvals: approvalsOf(query), shifts: shiftsOf(query), policy: this.policyOnce(query) };
  }

  static async open(
    location: LedgerLocation & { kind: 'postgres' },
    options: PostgresLedgerOptions,
  ): Promise<PostgresLedger> {
    const connection = await connectLedger(location, options.env);
    const ledger = new PostgresLedger(location, new ConnectionTurn(connection, location.shown), options);
    try {
      await ensureSchema(connection.client, location.shown);
      await ledger.learnRole();
      const { outcomes } = ledger;
      const insertOutcomes = (waiting: Parameters<OutcomeWriter['insert']>[0]) => outcomes.insert(waiting);
      await deliverFallback({ fallback: outcomes.fallback, insertOutcomes, note: options.note, lost: connection.lost });
    } catch (error) {
      await ledger.close();
      throw error;
    }
    return ledger;
  }

  /** Read once a command: the administrator changes it between commands, not inside one. */
  private policyOnce(query: ConnectionTurn['query']): () => Promise<LedgerPolicy> {
    let policy: Promise<LedgerPolicy> | undefined;
    return () =>
      (policy ??= ledgerPolicyOf((text) => query(text, [])).catch((error: unknown) => {
        policy = undefined;
        throw error;
      }));
  }

  /** An operator role (roles.ts) is what the database records as the operator of every row, so
   * the ledger says so: the desk's rules weigh that role's payments, not a profile's name. */
  private async learnRole(): Promise<void> {
    const [row] = await this.turn.query(
      'SELECT session_user AS role, agentpay_is_operator(session_user) AS operator',
      [],
    );
    if (row?.operator !== true) return;
    this.recordsAs = text(row.role);
    this.by = { ...this.by, operator: this.recordsAs };
    this.recorder.by = this.by;
  }

  async recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    if (options.guard !== undefined) return this.claims.submit(intent, options);
    const notSent = noPaymentSent();
    return this.turn.run(() => insertOrRetry(this.recorder, intent, new Date().toISOString(), notSent));
  }

  recordOutcome(outcome: OutcomeRecord, answers?: AttemptRef): Promise<void> {
    return this.outcomes.record(outcome, answers);
  }

  openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    return reads.openOwnersOf(this.reader, filter);
  }

  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    const { query } = this.turn;
    for (let after = '0'; ; ) {
      await query('BEGIN', []);
      const rows = await query(sql.claimOpen, [owner.gateway, owner.agentId, after, claimSize, filter.since ?? null]);
      if (rows.length === 0) return void (await query('COMMIT', []));
      after = text(rows.at(-1)!.seq);
      // The attempt each answer is for: a retry made while the batch is out makes it stale.
      const attempts = new Map(rows.map((row) => [text(row.transaction_id), text(row.attempt_seq)]));
      yield this.outcomes.claimedBatch(claimedEntriesOf(rows), attempts);
    }
  }

  entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    return reads.entriesOf(this.reader, filter);
  }

  importRecords(records: AsyncIterable<JournalRecord>): Promise<{ added: number; conflicts: string[] }> {
    return importJournalRecords(importStoreOf(this.turn.query), this.by, records);
  }

  exportRecords(): AsyncGenerator<JournalRecord> {
    return reads.exportedRecords(this.reader);
  }

  payments(query: PaymentsQuery): AsyncGenerator<PaymentRow[]> {
    return reads.paymentsOf(this.reader, query);
  }

  recentPayments(query: LookBackQuery): Promise<RecentPayment[]> {
    return this.turn.run(() => reads.recentPaymentsOf({ query: this.turn.queryNow, sql: sql.reads }, query));
  }

  bulkRun(owner: Owner): Promise<BulkRun> {
    const { turn } = this;
    const transaction = (statements: readonly [string, unknown[]][]) =>
      turn.run(() => inTransaction(turn.queryNow, statements));
    return openBulkRun({ query: turn.query, transaction, sql: bulkStatements }, owner);
  }

  transaction(transactionId: string, owner?: Owner): Promise<HeldTransaction[]> {
    return reads.transactionsById(this.reader, transactionId, owner);
  }

  async close(): Promise<void> {
    letGo(this.turn.connection);
  }
}
