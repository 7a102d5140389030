import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import { AgentpayError, LedgerUnreachableError, LocalStorageError, noPaymentSent } from '../../errors.js';
import { t } from '../../i18n/current.js';
import { type Claim, ClaimQueue, groupedByOwner, lookBackOfClaims } from '../claim-queue.js';
import type {
  AttemptRef,
  ClaimedBatch,
  Intent,
  IntentOptions,
  IntentResult,
  JournalEntry,
  Ledger,
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
  RecordedBy,
} from '../ledger.js';
import type { LedgerLocation } from '../location.js';
import { lineOf, readRecord } from '../record-format.js';
import { attemptReopens, differingParameters, type IntentRecord, type JournalRecord, type OutcomeRecord, replacesOutcome } from '../records.js';
import { connectLedger, type LedgerConnection, reasonOf } from './connect.js';
import { deliverWaiting, fallbackOf, keepWaiting, setAside, type WaitingOutcome } from './fallback.js';
import * as sql from './queries.js';
import { ensureSchema } from './schema.js';

/** How many open transactions one claim takes, and how many transactions history reads at once. */
const claimSize = 500;
const pageSize = 250;

type Row = Record<string, unknown>;
const text = (value: unknown) => String(value);
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

function intentOfRow(row: Row, at: unknown = row.at): IntentRecord {
  const by = { operator: row.record_operator ?? row.operator, host: row.record_host ?? row.host };
  return {
    kind: 'intent',
    transactionId: text(row.transaction_id),
    gateway: text(row.gateway),
    agentId: text(row.agent_id),
    service: text(row.service),
    account: text(row.account),
    amount: text(row.amount),
    currency: text(row.currency),
    invoiceId: row.invoice_id === null ? null : text(row.invoice_id),
    ...(typeof row.voucher === 'string' ? { voucher: row.voucher } : {}),
    ...(typeof by.operator === 'string' ? { operator: by.operator } : {}),
    ...(typeof by.host === 'string' ? { host: by.host } : {}),
    ...(Array.isArray(row.overrides) && row.overrides.length > 0 ? { overrides: row.overrides.map(text) } : {}),
    at: iso(at),
  };
}

/** The parameters of insertIntent ($1..$11, $13, $14; $12 is the record id): an intent as recorded at `at` by `by`. */
function intentValues(intent: Intent, at: string, by: RecordedBy): unknown[] {
  const { gateway, agentId, transactionId, service, account, amount, currency, invoiceId } = intent;
  return [gateway, agentId, transactionId, service, account, amount, currency, invoiceId, at, by.operator, by.host, undefined, intent.voucher ?? null, intent.overrides ?? null];
}

/** An outcome as the journal has it; the view checked and in the journal's key order (readRecord). */
function outcomeOfRow(intent: IntentRecord, at: unknown, source: unknown, view: unknown): OutcomeRecord {
  const { transactionId, gateway, agentId } = intent;
  return readRecord({ kind: 'outcome', transactionId, gateway, agentId, at: iso(at), source, view }) as OutcomeRecord;
}

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
 * was away.
 */
export class PostgresLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'postgres' };
  private readonly connection: LedgerConnection;
  private readonly options: PostgresLedgerOptions;
  private readonly by: RecordedBy;
  /** The connection's turn: one query (or one claims transaction) at a time, never overlapping. */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly claims = new ClaimQueue((batch) => this.inTurn(() => this.settleClaims(batch)));

  private constructor(location: LedgerLocation & { kind: 'postgres' }, connection: LedgerConnection, options: PostgresLedgerOptions) {
    this.location = location;
    this.connection = connection;
    this.options = options;
    this.by = { operator: options.operator, host: hostname() };
  }

  static async open(location: LedgerLocation & { kind: 'postgres' }, options: PostgresLedgerOptions): Promise<PostgresLedger> {
    const connection = await connectLedger(location, options.env);
    const ledger = new PostgresLedger(location, connection, options);
    try {
      await ensureSchema(connection.client, location.shown);
      await ledger.deliverFallback();
    } catch (error) {
      await ledger.close();
      throw error;
    }
    return ledger;
  }

  private get client(): pg.Client {
    return this.connection.client;
  }

  private get fallback() {
    return fallbackOf(this.options.stateDirectory, this.location.shown);
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
  private query(text: string, values: unknown[], consequence?: string): Promise<Row[]> {
    return this.inTurn(() => this.queryNow(text, values, consequence));
  }

  /** A query sent now: inside a turn already held. */
  private async queryNow(text: string, values: unknown[], consequence?: string): Promise<Row[]> {
    try {
      return (await this.client.query(text, values)).rows as Row[];
    } catch (error) {
      throw new LedgerUnreachableError(this.location.shown, reasonOf(this.connection.lost.error ?? error), { cause: error, ...(consequence ? { consequence } : {}) });
    }
  }

  async recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    if (options.guard !== undefined) return this.claims.submit(intent, options);
    const notSent = noPaymentSent();
    return this.inTurn(() => this.insertOrRetry(intent, new Date().toISOString(), notSent));
  }

  /**
   * The TransactionID checked and taken in one statement: two terminals cannot both take it; a
   * taken one is a retry of the same purchase, or a conflict. One written by a transaction not
   * yet committed is found by the next look. In a turn held already.
   */
  private async insertOrRetry(intent: Intent, at: string, notSent: string): Promise<IntentResult> {
    const values = intentValues(intent, at, this.by);
    for (let look = 0; look < 3; look++) {
      values[11] = randomUUID();
      const [made] = await this.queryNow(sql.insertIntent, values, notSent);
      if (made !== undefined) return { kind: 'new', attempt: text(made.attempt_seq) };
      const [row] = await this.queryNow(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId], notSent);
      if (row === undefined) continue;
      const earlier = intentOfRow(row);
      if (differingParameters(earlier, intent).length > 0) return { kind: 'conflict', earlier };
      const [attempt] = await this.queryNow(sql.insertAttempt, [randomUUID(), row.seq, at, this.by.operator, this.by.host, intent.overrides ?? null], notSent);
      return { kind: 'retry', attempt: attempt === undefined ? undefined : text(attempt.attempt_seq) };
    }
    throw new LedgerUnreachableError(this.location.shown, `transaction ${intent.transactionId} is being recorded by another terminal right now`, { consequence: notSent });
  }

  /**
   * A batch of claims in one database transaction, in the connection's turn: advisory locks on
   * the accounts (and the operator, when a daily limit weighs theirs), so another terminal's
   * claim on them waits for this commit; then one look-back, each claim weighed with those
   * accepted before it, and the intents inserted. The callers hear once it is committed.
   */
  private async settleClaims(batch: readonly Claim[]): Promise<void> {
    const notSent = noPaymentSent();
    const answered: [Claim, IntentResult][] = [];
    // READ COMMITTED whatever the database's default: each statement then sees what the claim
    // it waited for committed. Under REPEATABLE READ the snapshot would be older than the lock.
    await this.queryNow('BEGIN ISOLATION LEVEL READ COMMITTED', [], notSent);
    try {
      // A terminal stopped between its BEGIN and COMMIT holds the account's lock: wait so long, no longer.
      await this.queryNow(`SET LOCAL lock_timeout = '${claimLockTimeoutMs}ms'`, [], notSent);
      await this.queryNow(sql.lockPurchases, [lockKeysOf(batch)], notSent).catch((error: unknown) => {
        throw lockTimedOut(error) ? new LedgerUnreachableError(this.location.shown, t().lock.purchaseBusy, { cause: error, consequence: notSent }) : error;
      });
      // The database's clock, once the locks are held: the desk's terminals agree on it, and a
      // claim recorded after another's is later than it. The rules' reach moves with it.
      const [clock] = await this.queryNow('SELECT clock_timestamp() AS now', [], notSent);
      const at = clock?.now instanceof Date ? clock.now : new Date();
      const skewMs = at.getTime() - Date.now();
      for (const group of groupedByOwner(batch)) {
        const reach = lookBackOfClaims(group);
        const owner = { gateway: group[0]!.intent.gateway, agentId: group[0]!.intent.agentId };
        const recent = reach === undefined ? [] : await this.recentNow({ ...owner, ...reach, since: new Date(reach.since.getTime() + skewMs) });
        for (const claim of group) {
          const result = await this.settleClaim(claim, recent, at, notSent);
          if (result !== undefined) answered.push([claim, result]);
        }
      }
      await this.queryNow('COMMIT', [], notSent);
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    for (const [claim, result] of answered) claim.resolve(result);
  }

  /**
   * One claim inside the batch's transaction, under a savepoint of its own: a claim the rules
   * refuse, or whose insert fails, is answered alone (undefined) and the others go on.
   */
  private async settleClaim(claim: Claim, recent: RecentPayment[], at: Date, notSent: string): Promise<IntentResult | undefined> {
    await this.queryNow('SAVEPOINT claim', [], notSent);
    try {
      const { intent: asked, options } = claim;
      const earlier = options.checkReplay ? await this.queryNow(sql.selectIntent, [asked.gateway, asked.agentId, asked.transactionId], notSent) : [];
      // The same purchase again (the safe retry) passes the desk's rules: it can never pay twice.
      const lifted = earlier.length === 0 && options.guard !== undefined ? options.guard.decide(recent, at) : [];
      const overrides = [...new Set([...(asked.overrides ?? []), ...lifted])];
      const intent = { ...asked, ...(overrides.length > 0 ? { overrides } : {}) };
      const result = await this.insertOrRetry(intent, at.toISOString(), notSent);
      if (result.kind === 'new') recent.push({ intent: { kind: 'intent', ...intent, ...this.by, at: at.toISOString() }, state: undefined });
      await this.queryNow('RELEASE SAVEPOINT claim', [], notSent);
      return result;
    } catch (error) {
      if (this.connection.lost.error !== undefined) throw error;
      await this.queryNow('ROLLBACK TO SAVEPOINT claim', [], notSent);
      claim.reject(error);
      return undefined;
    }
  }

  /** Appends outcomes in one statement; throws what the database said. */
  private async insertOutcomes(outcomes: readonly WaitingOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.inTurn(() => this.client.query(sql.insertOutcomes, outcomeColumns(outcomes)));
  }

  private waiting(record: OutcomeRecord, answers: AttemptRef): WaitingOutcome {
    return { recordId: randomUUID(), ...this.by, record, ...(answers === undefined ? {} : { answers }) };
  }

  /** Outcomes the database did not take: kept on this machine; throws LocalStorageError when even that fails. */
  private keepForLater(outcomes: readonly WaitingOutcome[], error: unknown): void {
    keepWaiting(this.fallback, outcomes);
    const count = outcomes.length === 1 ? `the outcome of ${outcomes[0]!.record.transactionId} is` : `${outcomes.length} outcomes are`;
    this.options.note(
      `the ledger ${this.location.shown} did not take it (${reasonOf(this.connection.lost.error ?? error)}): ${count} kept on this machine and delivered by the next agentpay command that reaches the ledger`,
    );
  }

  async recordOutcome(outcome: OutcomeRecord, answers?: AttemptRef): Promise<void> {
    const waiting = this.waiting(outcome, answers);
    try {
      await this.insertOutcomes([waiting]);
    } catch (error) {
      this.keepForLater([waiting], error);
    }
  }

  /**
   * The outcomes this machine kept while the ledger was away, delivered. Never fatal: a
   * delivery the database cannot take now stays for the next command; an outcome it refuses for
   * what it holds is set aside (postgres/fallback.ts), so it cannot hold up the others.
   */
  private async deliverFallback(): Promise<void> {
    const deliver = async (outcomes: WaitingOutcome[]): Promise<number> => {
      try {
        await this.insertOutcomes(outcomes);
        return outcomes.length;
      } catch (error) {
        if (this.connection.lost.error !== undefined) throw error;
        const refused: WaitingOutcome[] = [];
        for (const outcome of outcomes) await this.insertOutcomes([outcome]).catch(() => refused.push(outcome));
        if (refused.length > 0) {
          const path = setAside(this.fallback, refused);
          this.options.note(`the ledger refused ${refused.length} outcome${refused.length === 1 ? '' : 's'} kept on this machine (${reasonOf(error)}): set aside in ${path}`);
        }
        return outcomes.length - refused.length;
      }
    };
    try {
      const delivered = await deliverWaiting(this.fallback, deliver);
      if (delivered > 0) this.options.note(`delivered ${delivered} outcome${delivered === 1 ? '' : 's'} kept on this machine while the ledger was unreachable`);
    } catch (error) {
      if (!(error instanceof AgentpayError) && this.connection.lost.error === undefined) throw error;
      this.options.note(`outcomes kept on this machine wait for a later command: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    const rows = await this.query(sql.openOwners, [filter.since ?? null]);
    return rows.map((row) => ({ gateway: text(row.gateway), agentId: text(row.agent_id), count: Number(row.count) }));
  }

  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    let after = '0';
    for (;;) {
      await this.query('BEGIN', []);
      const rows = await this.query(sql.claimOpen, [owner.gateway, owner.agentId, after, claimSize, filter.since ?? null]);
      if (rows.length === 0) {
        await this.query('COMMIT', []);
        return;
      }
      after = text(rows.at(-1)!.seq);
      const entries: JournalEntry[] = rows.map((row) => {
        const intent = intentOfRow(row, row.attempted_at);
        return { intent, outcome: row.outcome_view === null ? undefined : outcomeOfRow(intent, row.outcome_at, row.outcome_source, row.outcome_view) };
      });
      // The attempt each answer is for: a retry made while the batch is out makes it stale.
      const attempts = new Map(rows.map((row) => [text(row.transaction_id), text(row.attempt_seq)]));
      yield this.claimedBatch(entries, attempts);
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
      await this.inTurn(() => this.client.query('COMMIT'));
      return { unrecorded: 0 };
    } catch (error) {
      await this.inTurn(() => this.client.query('ROLLBACK')).catch(() => undefined);
      if (learned.length === 0) throw new LedgerUnreachableError(this.location.shown, reasonOf(this.connection.lost.error ?? error), { cause: error });
      try {
        this.keepForLater(learned, error);
        return { unrecorded: 0 };
      } catch (kept) {
        if (!(kept instanceof LocalStorageError)) throw kept;
        return { unrecorded: learned.length, failure: kept };
      }
    }
  }

  async entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    const since = filter.since ?? null;
    const operator = filter.operator ?? null;
    const gatewaysFor = async (operatorFilter: string | null, gateway: string | null) =>
      (await this.query(sql.gatewaysOf, [since, operatorFilter, gateway])).map((row) => text(row.gateway));
    const allGateways = await gatewaysFor(null, null);
    // The same query when nothing but --since filters: asked once.
    const gateways = operator === null && filter.gateway === undefined ? allGateways : await gatewaysFor(operator, filter.gateway ?? null);
    const pages = this.entryPages(filter);
    return { gateways, allGateways, [Symbol.asyncIterator]: () => pages };
  }

  /** Transactions a page at a time (keyset on their seq), each with its latest state: memory follows the page. */
  private async *entryPages(filter: LedgerHistoryFilter): AsyncGenerator<LedgerEntry> {
    let after = '0';
    for (;;) {
      const page = await this.query(sql.transactionPage, [after, pageSize, filter.since ?? null, filter.operator ?? null, filter.gateway ?? null]);
      if (page.length === 0) return;
      after = text(page.at(-1)!.seq);
      const records = await this.query(sql.recordsOf, [page.map((row) => row.seq)]);
      const bySeq = new Map<string, Row[]>();
      for (const record of records) {
        const key = text(record.transaction_seq);
        const list = bySeq.get(key);
        if (list) list.push(record);
        else bySeq.set(key, [record]);
      }
      for (const row of page) {
        const records = inWindow(bySeq.get(text(row.seq)) ?? [], filter.since);
        // As the journal shows it: from its first attempt in the window, at that attempt's time.
        const intent = intentOfRow(row, filter.since === undefined ? row.at : records[0]?.at);
        const outcome = latestOutcome(intent, records);
        // A transaction with no outcome on record counts as unknown (ledger.ts HistoryFilter).
        if (filter.state !== undefined && (outcome?.view.state ?? 'unknown') !== filter.state) continue;
        yield { intent, outcome, recordedBy: { operator: text(row.operator), host: text(row.host) } };
      }
    }
  }

  /**
   * Loads a journal's records (journal/*), in their order, as if they had been recorded here:
   * each gets an id from its content, so loading the same journal twice adds nothing. Open
   * transactions stay open for reconcile. A TransactionID the ledger holds for another purchase
   * is left out, counted in `conflicts`.
   */
  async importRecords(records: AsyncIterable<JournalRecord>): Promise<{ added: number; conflicts: string[] }> {
    const seen = new Map<string, number>();
    const idOf = (record: JournalRecord) => {
      const line = lineOf(record);
      const occurrence = (seen.get(line) ?? 0) + 1;
      seen.set(line, occurrence);
      return uuidOf(`${occurrence} ${line}`);
    };
    const conflicts: string[] = [];
    // Owners whose TransactionID the ledger holds for another purchase: none of their records go in.
    const refused = new Set<string>();
    const ownerOf = (record: JournalRecord) => `${record.gateway} ${record.agentId} ${record.transactionId}`;
    let added = 0;
    let inTransaction = 0;
    await this.query('BEGIN', []);
    for await (const record of records) {
      const recordId = idOf(record);
      if (refused.has(ownerOf(record))) continue;
      if (record.kind === 'outcome') {
        const [row] = await this.query(sql.insertOutcomes, outcomeColumns([{ recordId, ...this.by, record }]));
        added += Number(row?.inserted ?? 0);
      } else {
        const { kind: _kind, at, operator, host, ...intent } = record;
        // Who made it, where the journal says (newer journals do); else who imports it.
        const by = { operator: operator ?? this.by.operator, host: host ?? this.by.host };
        const values = intentValues(intent, at, by);
        values[11] = recordId;
        if ((await this.query(sql.insertIntent, values)).length > 0) added++;
        else {
          const [row] = await this.query(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId]);
          if (row !== undefined && differingParameters(intentOfRow(row), intent).length > 0) {
            conflicts.push(intent.transactionId);
            refused.add(ownerOf(record));
          } else if (row !== undefined) added += (await this.query(sql.insertAttempt, [recordId, row.seq, at, by.operator, by.host, intent.overrides ?? null])).length;
        }
      }
      if (++inTransaction === 500) {
        await this.query('COMMIT', []);
        await this.query('BEGIN', []);
        inTransaction = 0;
      }
    }
    await this.query('COMMIT', []);
    return { added, conflicts };
  }

  /** Every record, in the order it was recorded, as journal records (an attempt as an intent line). */
  async *exportRecords(): AsyncGenerator<JournalRecord> {
    let after = '0';
    for (;;) {
      const page = await this.query(sql.recordPage, [after, pageSize]);
      if (page.length === 0) return;
      after = text(page.at(-1)!.record_seq);
      for (const row of page) {
        const intent = intentOfRow(row, row.record_at);
        yield row.kind === 'attempt' ? intent : outcomeOfRow(intent, row.record_at, row.source, row.view);
      }
    }
  }

  /** The span's transactions as history pages them, cut to the agent and the span's end. */
  async *payments({ since, until, gateway, agentId }: PaymentsQuery): AsyncGenerator<PaymentRow[]> {
    let batch: PaymentRow[] = [];
    for await (const { intent, outcome } of this.entryPages({ since, gateway })) {
      if ((agentId !== undefined && intent.agentId !== agentId) || Date.parse(intent.at) >= until.getTime()) continue;
      batch.push({ transactionId: intent.transactionId, account: intent.account, amount: intent.amount, at: intent.at, state: outcome?.view.state ?? 'unknown' });
      if (batch.length === pageSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async recentPayments(query: LookBackQuery): Promise<RecentPayment[]> {
    return this.inTurn(() => this.recentNow(query));
  }

  /** recentPayments in a turn held already. */
  private async recentNow(query: LookBackQuery): Promise<RecentPayment[]> {
    // One round trip before the intent: each transaction comes with its records (as JSON, their times as text).
    const rows = await this.queryNow(
      sql.recentTransactions,
      [query.gateway, query.agentId, query.since.toISOString(), query.operator ?? null, [...query.accounts]],
      noPaymentSent(),
    );
    const records = rows.flatMap((row) => ((row.records as Row[] | null) ?? []).map((record) => ({ ...record, at: new Date(String(record.at)) })));
    const entries = this.latestWordOf(rows, records);
    return entries.map(({ intent, outcome }) => ({ intent, state: outcome?.view.state }));
  }

  /**
   * Sends the server its Terminate and lets the process go: every write was awaited before, so
   * waiting for the server to close the socket would only hold the command's exit (a ms or more).
   */
  async close(): Promise<void> {
    void this.client.end().catch(() => undefined);
    (this.client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  }

  async transaction(transactionId: string, owner?: Owner): Promise<JournalEntry[]> {
    return this.withLatestWord(await this.query(sql.transactionsById, [transactionId, owner?.gateway ?? null, owner?.agentId ?? null]));
  }

  /** Transactions (rows of agentpay_transactions) as their latest attempt's intent and latest word, by the ledger's rules. */
  private async withLatestWord(rows: Row[]): Promise<JournalEntry[]> {
    if (rows.length === 0) return [];
    return this.latestWordOf(rows, await this.query(sql.attemptsAndOutcomesOf, [rows.map((row) => row.seq)]));
  }

  /** Transactions (rows) with their latest attempt's intent and latest word, from their records in order. */
  private latestWordOf(rows: Row[], records: Row[]): JournalEntry[] {
    const bySeq = new Map<string, Row[]>();
    for (const record of records) {
      const seq = text(record.transaction_seq);
      bySeq.set(seq, [...(bySeq.get(seq) ?? []), record]);
    }
    return rows.map((row) => {
      const own = bySeq.get(text(row.seq)) ?? [];
      // The latest attempt: who made it, when, and the guards lifted for it.
      const attempt = own.filter((record) => record.kind === 'attempt').at(-1);
      const intent =
        attempt === undefined ? intentOfRow(row) : intentOfRow({ ...row, record_operator: attempt.operator, record_host: attempt.host, overrides: attempt.overrides }, attempt.at);
      return { intent, outcome: latestOutcome(intent, own) };
    });
  }
}

/** How long a claim waits for another terminal's lock on the same account. */
const claimLockTimeoutMs = 30_000;

/** PostgreSQL's lock_not_available: lock_timeout ran out. */
const lockTimedOut = (error: unknown) => (error as { cause?: { code?: unknown } } | undefined)?.cause?.code === '55P03';

/**
 * What a batch of claims locks (sql.lockPurchases): each purchase's account, and the operator
 * when a daily limit weighs their payments; the TransactionID of a replay. Any two claims that
 * could weigh each other share a key.
 */
function lockKeysOf(claims: readonly Claim[]): string[] {
  const keys = new Set<string>();
  for (const { intent, options } of claims) {
    const owner = `${intent.gateway}\n${intent.agentId}`;
    keys.add(`account\n${owner}\n${intent.account}`);
    keys.add(`transaction\n${owner}\n${intent.transactionId}`);
    if (options.guard?.operator !== undefined) keys.add(`operator\n${owner}\n${options.guard.operator}`);
  }
  return [...keys];
}

/** A UUID (its version bits set as v8, "custom") from the SHA-256 of `text`: the same text, the same id. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A transaction's records from its first attempt at or after `since` (history --since), as the journal reads them. */
function inWindow(records: readonly Row[], since: Date | undefined): readonly Row[] {
  if (since === undefined) return records;
  const first = records.findIndex((record) => record.kind === 'attempt' && new Date(iso(record.at)).getTime() >= since.getTime());
  return first === -1 ? [] : records.slice(first);
}

/** Outcomes as the parallel arrays sql.insertOutcomes takes. */
function outcomeColumns(outcomes: readonly WaitingOutcome[]): unknown[][] {
  const column = <T>(pick: (outcome: WaitingOutcome) => T) => outcomes.map(pick);
  return [
    column((o) => o.recordId),
    column((o) => o.record.gateway),
    column((o) => o.record.agentId),
    column((o) => o.record.transactionId),
    column((o) => o.record.at),
    column((o) => o.record.source),
    column((o) => o.record.view.state),
    // PostgreSQL text cannot hold NUL: a gateway Message with one keeps the rest, NUL as U+FFFD.
    column((o) => JSON.stringify(o.record.view, (_key, value: unknown) => (typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value))),
    column((o) => o.operator),
    column((o) => o.host),
    column((o) => o.answers ?? null),
  ];
}

/**
 * The latest word on a transaction, by the ledger's rules (ledger/records.ts replacesOutcome,
 * as the journal's readers apply them): a success stands; an outcome that answers an attempt
 * older than the latest is stale (a retry went out since) and changes nothing but a success.
 */
function latestOutcome(intent: IntentRecord, records: readonly Row[]): OutcomeRecord | undefined {
  let latest: OutcomeRecord | undefined;
  let latestAttempt = 0n;
  for (const record of records) {
    if (record.kind === 'attempt') {
      latestAttempt = BigInt(text(record.seq));
      if (attemptReopens(latest?.view.state)) latest = undefined;
      continue;
    }
    const outcome = outcomeOfRow(intent, record.at, record.source, record.view);
    const stale = record.answers_attempt !== null && BigInt(text(record.answers_attempt)) < latestAttempt;
    if (stale && outcome.view.state !== 'success') continue;
    if (replacesOutcome(latest?.view.state, outcome.view.state)) latest = outcome;
  }
  return latest;
}
