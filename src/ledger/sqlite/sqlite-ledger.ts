import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { noPaymentSent } from '../../errors.js';
import type { LedgerLocation } from '../../ledger-location.js';
import { processAlive } from '../../lock-file.js';
import { t } from '../../run-scope.js';
import type { BulkRun } from '../bulk-run.js';
import { type Claim, ClaimQueue, groupedByOwner, lookBackOfClaims } from '../claim-queue.js';
import { claimedBatchOf } from '../claimed-batch.js';
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
import { claimedEntriesOf, type Row, text } from '../sql/rows.js';
import { bulkStatements } from './bulk-queries.js';
import { configure, openDatabase } from './database.js';
import { GroupCommit } from './group-commit.js';
import * as sql from './queries.js';
import { Statements } from './query.js';
import { ensureSqliteSchema } from './schema.js';
import { journalIdentity } from './this-machine.js';
import { beginWrite, type WriteTurnPlace, whenFree } from './write-turn.js';
import { importStoreOf, insertOrRetry, insertOutcome } from './writes.js';

/** How many open transactions one claim takes, and how long its lease lasts if its holder says nothing. */
const claimSize = 500;
const leaseMs = 15 * 60_000;

export interface SqliteLedgerOptions {
  by: RecordedBy;
  /** A message for the person (a long wait for another process's write). */
  note(message: string): void;
  stop?: AbortSignal | undefined;
}

// The ledger as a SQLite file on this machine (docs/reliability.md): the team schema, the shared reads, and
// each check-and-record in one `BEGIN IMMEDIATE`, so two processes never both pass a rule one payment breaks.
export class SqliteLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'file' };
  private readonly db: Statements;
  private readonly place: WriteTurnPlace;
  private readonly by: RecordedBy;
  /** This connection's writes: one transaction at a time, those asked for meanwhile together. */
  private readonly writes: GroupCommit;
  /** Claims made in the same turn of the event loop (a bulk run's rows in flight) share a transaction. */
  private readonly claims = new ClaimQueue(
    (batch) => this.settleClaims(batch),
    () => nextTurn(),
  );
  private readonly reader: reads.SqlReader;
  /** This process's name on the leases it holds (reconcile's claims): its host, then its own id. */
  private readonly holder = `${hostname()} ${randomUUID()}`;

  private constructor(
    location: LedgerLocation & { kind: 'file' },
    place: WriteTurnPlace,
    options: SqliteLedgerOptions,
  ) {
    this.location = location;
    this.db = new Statements(place);
    this.place = place;
    this.writes = new GroupCommit(place);
    this.by = options.by;
    this.reader = { query: this.db.query, sql: sql.reads };
  }

  static async open(location: LedgerLocation & { kind: 'file' }, options: SqliteLedgerOptions): Promise<SqliteLedger> {
    const database = openDatabase(location.path);
    const place = { database, path: location.path, note: options.note, stop: options.stop };
    try {
      await whenFree(place, () => configure(database), { action: 'open the ledger' });
      await ensureSqliteSchema(place, location.shown);
    } catch (error) {
      database.close();
      throw error;
    }
    return new SqliteLedger(location, place, options);
  }

  // Work in a write transaction (group-commit.ts). An answer already learned is written even after SIGINT or
  // SIGTERM (`unstoppable`): a stop ends waits, never loses an outcome.
  private write<T>(work: () => T | Promise<T>, consequence?: string, unstoppable = false): Promise<T> {
    return this.writes.write(work, consequence, unstoppable);
  }

  recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    return this.claims.submit(intent, options);
  }

  // A batch of claims in one write transaction: one look-back per owner, each claim weighed with those
  // accepted before it, then recorded.
  private async settleClaims(batch: readonly Claim[]): Promise<void> {
    const notSent = noPaymentSent();
    const answered = await this.write(async () => {
      const results: [Claim, IntentResult][] = [];
      const at = new Date();
      for (const group of groupedByOwner(batch)) {
        const reach = lookBackOfClaims(group);
        const owner = { gateway: group[0]!.intent.gateway, agentId: group[0]!.intent.agentId };
        const recent = reach === undefined ? [] : await reads.recentPaymentsOf(this.reader, { ...owner, ...reach });
        for (const claim of group) {
          const result = this.settleClaim(claim, recent, at);
          if (result !== undefined) results.push([claim, result]);
        }
      }
      return results;
    }, notSent);
    for (const [claim, result] of answered) claim.resolve(result);
  }

  /** One claim: refused by the desk's rules (answered alone, nothing recorded) or recorded. */
  private settleClaim(claim: Claim, recent: RecentPayment[], at: Date): IntentResult | undefined {
    const { intent: asked, options } = claim;
    const earlier = options.checkReplay
      ? this.db.get(sql.selectIntent, [asked.gateway, asked.agentId, asked.transactionId])
      : undefined;
    let lifted: readonly string[] = [];
    try {
      // The same purchase again (the safe retry) passes the desk's rules: it can never pay twice.
      if (earlier === undefined && options.guard !== undefined) lifted = options.guard.decide(recent, at);
    } catch (refusal) {
      claim.reject(refusal);
      return undefined;
    }
    const overrides = [...new Set([...(asked.overrides ?? []), ...lifted])];
    const intent = { ...asked, ...(overrides.length > 0 ? { overrides } : {}) };
    const result = insertOrRetry(this.db, intent, at.toISOString(), this.by);
    if (result.kind === 'new')
      recent.push({ intent: { kind: 'intent', ...intent, ...this.by, at: at.toISOString() }, state: undefined });
    return result;
  }

  async recordOutcome(outcome: OutcomeRecord, answers?: AttemptRef): Promise<void> {
    await this.write(() => insertOutcome(this.db, this.waiting(outcome, answers)), undefined, true);
  }

  private waiting(record: OutcomeRecord, answers: AttemptRef) {
    return { recordId: randomUUID(), ...this.by, record, ...(answers === undefined ? {} : { answers }) };
  }

  openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    return reads.openOwnersOf(this.reader, filter);
  }

  // Open transactions a batch at a time, leased to this process until done(). A lease whose holder died on
  // this machine is free at once (WAL keeps the ledger to one machine); any other after leaseMs.
  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    let after = 0;
    for (;;) {
      const rows = await this.write(() => this.lease(owner, filter, after));
      if (rows.length === 0) return await this.sayLeasedElsewhere(owner);
      after = Number(rows.at(-1)!.seq);
      const attempts = new Map(rows.map((row) => [text(row.transaction_id), text(row.attempt_seq)]));
      yield this.claimedBatch(claimedEntriesOf(rows), attempts);
    }
  }

  private lease(owner: Owner, filter: LedgerFilter, after: number): Row[] {
    // Only a process of this host can be asked whether it is alive (another pid namespace cannot).
    const here = `${hostname()} `;
    for (const { holder, pid } of this.db.all(sql.leaseHolders))
      if (holder !== this.holder && String(holder).startsWith(here) && !processAlive(Number(pid)))
        this.db.run(sql.releaseLeases, [holder]);
    const now = new Date();
    const until = new Date(now.getTime() + leaseMs);
    const values = [owner.gateway, owner.agentId, after, claimSize, filter.since, now, until];
    const rows = this.db.all(sql.claimOpen, values);
    if (rows.length > 0) this.db.run(sql.takeLeases, [rows.map((row) => row.seq), this.holder, process.pid, until]);
    return rows;
  }

  /** Open transactions another reconciler works now are left to it, and said: reconcile counts none of them. */
  private async sayLeasedElsewhere(owner: Owner): Promise<void> {
    const now = new Date();
    const values = [owner.gateway, owner.agentId, this.holder, now, new Date(now.getTime() + leaseMs)];
    const held = Number((await this.db.query(sql.leasedElsewhere, values))[0]?.held ?? 0);
    if (held > 0) this.place.note(t().ledger.leasedElsewhere(held));
  }

  /** A claimed batch: its outcomes written together at done(), with its leases let go. */
  private claimedBatch(entries: JournalEntry[], attempts: ReadonlyMap<string, string>): ClaimedBatch {
    const waitingOf = (outcome: OutcomeRecord) => this.waiting(outcome, attempts.get(outcome.transactionId));
    return claimedBatchOf(entries, waitingOf, async (learned) => {
      const writeAll = () => {
        for (const outcome of learned) insertOutcome(this.db, outcome);
        this.db.run(sql.releaseLeases, [this.holder]);
      };
      try {
        await this.write(writeAll, undefined, true);
        return { unrecorded: 0 };
      } catch (failure) {
        if (learned.length === 0) throw failure;
        return { unrecorded: learned.length, failure };
      }
    });
  }

  entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    return reads.entriesOf(this.reader, filter);
  }

  recentPayments(query: LookBackQuery): Promise<RecentPayment[]> {
    return reads.recentPaymentsOf(this.reader, query);
  }

  bulkRun(owner: Owner): Promise<BulkRun> {
    const transaction = (statements: readonly [string, unknown[]][]) =>
      this.write(() => {
        for (const [text, values] of statements) this.db.run(text, values);
      });
    return openBulkRun({ query: this.db.query, transaction, sql: bulkStatements }, owner);
  }

  payments(query: PaymentsQuery): AsyncIterable<readonly PaymentRow[]> {
    return reads.paymentsOf(this.reader, query);
  }

  transaction(transactionId: string, owner?: Owner): Promise<HeldTransaction[]> {
    return reads.transactionsById(this.reader, transactionId, owner);
  }

  async importRecords(records: AsyncIterable<JournalRecord>): Promise<{ added: number; conflicts: string[] }> {
    const transaction = {
      begin: () => beginWrite(this.place),
      commit: async () => this.place.database.exec('COMMIT'),
    };
    try {
      return await importJournalRecords(importStoreOf(this.db, transaction), this.by, records);
    } catch (error) {
      if (this.place.database.isTransaction) this.place.database.exec('ROLLBACK');
      throw error;
    }
  }

  async rememberImported(path: string): Promise<void> {
    await this.write(() => this.db.run(sql.journalImported, [journalIdentity(path), new Date()]));
  }

  /** Whether the journal at `path` (an earlier agentpay's) was loaded whole into this ledger. */
  async hasImported(path: string): Promise<boolean> {
    return (await this.db.query(sql.importedJournal, [journalIdentity(path)])).length > 0;
  }

  exportRecords(): AsyncGenerator<JournalRecord> {
    return reads.exportedRecords(this.reader);
  }

  async close(): Promise<void> {
    await this.writes.idle();
    if (this.place.database.isOpen) this.place.database.close();
  }
}
