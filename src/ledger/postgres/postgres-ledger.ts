import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LedgerUnreachableError, LocalStorageError, noPaymentSent } from '../../errors.js';
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
  JournalEntry,
  Ledger,
  LedgerFilter,
  LedgerHistory,
  LedgerHistoryFilter,
  LedgerPolicy,
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
import { claimedEntriesOf, outcomeColumns, type Query, type Row, text } from '../sql/rows.js';
import { bulkStatements, inTransaction } from './bulk-queries.js';
import { type IntentRecorder, insertOrRetry, settleClaims } from './claims.js';
import { connectLedger, type LedgerConnection, letGo, reasonOf } from './connect.js';
import { deliverFallback } from './deliver-fallback.js';
import { fallbackOf, keepWaiting, keptNote, type WaitingOutcome } from './fallback.js';
import { importStoreOf } from './import-store.js';
import { ledgerPolicyOf } from './policy.js';
import * as sql from './queries.js';
import { intentRefusalOf } from './refusals.js';
import { ensureSchema } from './schema.js';

/** How many open transactions one claim takes. */
const claimSize = 500;

export interface PostgresLedgerOptions {
  env: NodeJS.ProcessEnv;
  operator: string;
  stateDirectory: string;
  /** A message for the person (delivered fallback outcomes, an outcome kept in the fallback). */
  note(message: string): void;
}

/**
 * The team ledger in PostgreSQL (docs/team-ledger.md). One connection per command. Opening it
 * applies missing migrations and delivers the outcomes this machine kept while the database
 * was away. This class owns the connection and its turn, the fallback and the claim queue;
 * recording intents is claims.ts, reading reads.ts, the rows' meaning rows.ts.
 */
export class PostgresLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'postgres' };
  private readonly connection: LedgerConnection;
  private readonly options: PostgresLedgerOptions;
  private by: RecordedBy;
  /** The operator role this connection is (ledger.ts recordsAs), undefined for another database user. */
  recordsAs: string | undefined;
  /** Where this machine keeps the outcomes the database did not take (fallback.ts). */
  private readonly fallback: ReturnType<typeof fallbackOf>;
  /** What the claim path (claims.ts) needs of this ledger. */
  private readonly recorder: IntentRecorder;
  /** The connection's turn: one query (or one claims transaction) at a time, never overlapping. */
  private tail: Promise<unknown> = Promise.resolve();
  private policy: Promise<LedgerPolicy> | undefined;
  /** Read once a command: the administrator changes it between commands, not inside one. */
  readonly ledgerPolicy = () =>
    (this.policy ??= ledgerPolicyOf((text) => this.query(text, [])).catch((error: unknown) => {
      this.policy = undefined;
      throw error;
    }));
  private readonly claims = new ClaimQueue((batch) => this.inTurn(() => settleClaims(this.recorder, batch)));

  private constructor(
    location: LedgerLocation & { kind: 'postgres' },
    connection: LedgerConnection,
    options: PostgresLedgerOptions,
  ) {
    this.location = location;
    this.connection = connection;
    this.options = options;
    this.by = { operator: options.operator, host: hostname() };
    this.fallback = fallbackOf(options.stateDirectory, location.shown);
    this.recorder = { connection, shown: location.shown, by: this.by, queryNow: this.queryNow };
  }

  static async open(
    location: LedgerLocation & { kind: 'postgres' },
    options: PostgresLedgerOptions,
  ): Promise<PostgresLedger> {
    const connection = await connectLedger(location, options.env);
    const ledger = new PostgresLedger(location, connection, options);
    try {
      await ensureSchema(connection.client, location.shown);
      await ledger.learnRole();
      const insertOutcomes = (outcomes: readonly WaitingOutcome[]) => ledger.insertOutcomes(outcomes);
      await deliverFallback({
        fallback: ledger.fallback,
        insertOutcomes,
        note: (message) => options.note(message),
        lost: connection.lost,
      });
    } catch (error) {
      await ledger.close();
      throw error;
    }
    return ledger;
  }

  /**
   * Whether the database user is one of the desk's operator roles (postgres/roles.ts): then the
   * database records it as the operator of every row, and this ledger says so, so the desk's
   * rules weigh that role's payments and not the name a profile gives.
   */
  private async learnRole(): Promise<void> {
    const { rows } = await this.connection.client.query<{ role: string; operator: boolean }>(
      'SELECT session_user AS role, agentpay_is_operator(session_user) AS operator',
    );
    const [row] = rows;
    if (row?.operator !== true) return;
    this.recordsAs = row.role;
    this.by = { ...this.by, operator: row.role };
    this.recorder.by = this.by;
  }

  /**
   * Work on the connection when its turn comes: a query is sent only once the one before has
   * been answered. node-postgres queues overlapping queries itself, but warns that the next
   * major refuses them, and a transaction must not take in another caller's statement.
   */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** A query whose failure is the ledger's (exit 4), saying what it means for the payment. */
  private readonly query: Query = (text, values, consequence) =>
    this.inTurn(() => this.queryNow(text, values, consequence));

  /** A query sent now: inside a turn already held. */
  private readonly queryNow: Query = async (text, values, consequence) => {
    try {
      return (await this.connection.client.query(text, values)).rows as Row[];
    } catch (error) {
      const refused = intentRefusalOf(error);
      if (refused !== undefined) throw refused;
      throw new LedgerUnreachableError(this.location.shown, reasonOf(this.connection.lost.error ?? error), {
        cause: error,
        ...(consequence ? { consequence } : {}),
      });
    }
  };

  /** The reads (sql/reads.ts) in this dialect, each query in the connection's turn. */
  private readonly reader = { query: this.query, sql: sql.reads };

  /**
   * One statement in the connection's turn, for the desk's own tables (approvals.ts): throws
   * LedgerUnreachableError with the server's error as its cause (its SQLSTATE says a refusal).
   */
  run(text: string, values: unknown[]): Promise<Row[]> {
    return this.query(text, values);
  }

  async recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    if (options.guard !== undefined) return this.claims.submit(intent, options);
    const notSent = noPaymentSent();
    return this.inTurn(() => insertOrRetry(this.recorder, intent, new Date().toISOString(), notSent));
  }

  /** Appends outcomes in one statement; throws what the database said. */
  private async insertOutcomes(outcomes: readonly WaitingOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.inTurn(() => this.connection.client.query(sql.insertOutcomes, outcomeColumns(outcomes)));
  }

  private waiting(record: OutcomeRecord, answers: AttemptRef): WaitingOutcome {
    return { recordId: randomUUID(), ...this.by, record, ...(answers === undefined ? {} : { answers }) };
  }

  /** Outcomes the database did not take: kept on this machine; throws LocalStorageError when even that fails. */
  private keepForLater(outcomes: readonly WaitingOutcome[], error: unknown): void {
    keepWaiting(this.fallback, outcomes);
    this.options.note(keptNote(this.location.shown, reasonOf(this.connection.lost.error ?? error), outcomes));
  }

  async recordOutcome(outcome: OutcomeRecord, answers?: AttemptRef): Promise<void> {
    const waiting = this.waiting(outcome, answers);
    try {
      await this.insertOutcomes([waiting]);
    } catch (error) {
      this.keepForLater([waiting], error);
    }
  }

  openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    return reads.openOwnersOf(this.reader, filter);
  }

  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    let after = '0';
    for (;;) {
      await this.query('BEGIN', []);
      const rows = await this.query(sql.claimOpen, [
        owner.gateway,
        owner.agentId,
        after,
        claimSize,
        filter.since ?? null,
      ]);
      if (rows.length === 0) {
        await this.query('COMMIT', []);
        return;
      }
      after = text(rows.at(-1)!.seq);
      // The attempt each answer is for: a retry made while the batch is out makes it stale.
      const attempts = new Map(rows.map((row) => [text(row.transaction_id), text(row.attempt_seq)]));
      yield this.claimedBatch(claimedEntriesOf(rows), attempts);
    }
  }

  /**
   * A claimed batch: its outcomes written with the commit that lets the claim go; kept in the
   * fallback if that fails. record() settles only then: until the commit the ledger holds none.
   */
  private claimedBatch(entries: JournalEntry[], attempts: ReadonlyMap<string, string>): ClaimedBatch {
    const learned: WaitingOutcome[] = [];
    let written = () => undefined as void;
    const committed = new Promise<void>((resolve) => (written = resolve));
    return {
      entries,
      record: (outcome) => {
        learned.push(this.waiting(outcome, attempts.get(outcome.transactionId)));
        return committed;
      },
      done: async () => {
        try {
          return await this.endClaim(learned);
        } finally {
          written();
        }
      },
    };
  }

  /** Writes a claimed batch's outcomes and commits, letting the claim go; the fallback keeps them if that fails. */
  private async endClaim(learned: readonly WaitingOutcome[]): Promise<{ unrecorded: number; failure?: unknown }> {
    try {
      await this.insertOutcomes(learned);
      await this.inTurn(() => this.connection.client.query('COMMIT'));
      return { unrecorded: 0 };
    } catch (error) {
      await this.inTurn(() => this.connection.client.query('ROLLBACK')).catch(() => undefined);
      if (learned.length === 0)
        throw new LedgerUnreachableError(this.location.shown, reasonOf(this.connection.lost.error ?? error), {
          cause: error,
        });
      try {
        this.keepForLater(learned, error);
        return { unrecorded: 0 };
      } catch (kept) {
        if (!(kept instanceof LocalStorageError)) throw kept;
        return { unrecorded: learned.length, failure: kept };
      }
    }
  }

  entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    return reads.entriesOf(this.reader, filter);
  }

  importRecords(records: AsyncIterable<JournalRecord>): Promise<{ added: number; conflicts: string[] }> {
    return importJournalRecords(importStoreOf(this.query), this.by, records);
  }

  exportRecords(): AsyncGenerator<JournalRecord> {
    return reads.exportedRecords(this.reader);
  }

  payments(query: PaymentsQuery): AsyncGenerator<PaymentRow[]> {
    return reads.paymentsOf(this.reader, query);
  }

  recentPayments(query: LookBackQuery): Promise<RecentPayment[]> {
    return this.inTurn(() => reads.recentPaymentsOf({ query: this.queryNow, sql: sql.reads }, query));
  }

  bulkRun(owner: Owner): Promise<BulkRun> {
    const transaction = (statements: readonly [string, unknown[]][]) =>
      this.inTurn(() => inTransaction(this.queryNow, statements));
    return openBulkRun({ query: this.query, transaction, sql: bulkStatements }, owner);
  }

  transaction(transactionId: string, owner?: Owner): Promise<HeldTransaction[]> {
    return reads.transactionsById(this.reader, transactionId, owner);
  }

  async close(): Promise<void> {
    letGo(this.connection);
  }
}
