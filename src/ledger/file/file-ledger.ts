import { errnoCodeOf, InterruptedError, LocalStorageError, type StopSignal } from '../../errors.js';
import { t } from '../../i18n/current.js';
import { type HeldLock, LockBusy, type LockHolder, lockWaiting } from '../../lock-file.js';
import { type Claim, ClaimQueue, groupedByOwner, lookBackOfClaims } from '../claim-queue.js';
import type {
  ChosenTransactions,
  ClaimedBatch,
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
  SetLookBackQuery,
} from '../ledger.js';
import type { LedgerLocation } from '../location.js';
import { differingParameters, type IntentRecord, type OutcomeRecord } from '../records.js';
import type { JournalWarning } from './reader.js';
import { RecentView } from './recent-view.js';
import { JournalWriter } from './writer.js';

const ownerKey = ({ gateway, agentId }: Owner) => `${gateway} ${agentId}`;

/** Lets the lock go; a lock that cannot be removed is said (it names this process, which others would wait for). */
function releaseQuietly(lock: HeldLock, warn: JournalWarning): void {
  try {
    lock.release();
  } catch (error) {
    warn(t().lock.notReleased(lock.path, error instanceof Error ? error.message : String(error)));
  }
}

/** A claim the rules let through, with the intent it records. */
interface Accepted {
  claim: Claim;
  record: IntentRecord;
  kind: 'new' | 'retry';
}

/** The journal's readers, loaded when one is needed: a plain `pay` only appends. */
const readers = () => import('./entries.js');

/**
 * How long a check-and-append waits for another process's: each holds the lock for one reading
 * of the journal's last minutes and one append, so a long wait means a holder that hangs.
 */
const journalLockWaitMs = 30_000;

/**
 * The ledger as a JSON Lines journal on this machine (journal/*): embedded, nothing to run.
 * A check-and-append (the replay guard, the desk's rules) holds the journal's lock file
 * (`<journal>.lock`) from its reading to its fsync: this machine's processes take turns.
 */
export class FileLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'file' };
  private readonly writer: JournalWriter;
  private readonly warn: JournalWarning;
  /** The open transactions as last read, so openOwners and claimOpen read the journal once. */
  private open: { since: number | undefined; entries: JournalEntry[] } | undefined;

  private readonly by: RecordedBy;
  private readonly claims = new ClaimQueue((batch) => this.settleClaims(batch));
  private readonly recentViews = new Map<string, RecentView>();

  /** Ends a wait for the journal's lock (SIGINT, SIGTERM: main.ts). */
  private readonly stop: AbortSignal | undefined;

  constructor(location: LedgerLocation & { kind: 'file' }, warn: JournalWarning, by: RecordedBy, stop?: AbortSignal) {
    this.stop = stop;
    this.location = location;
    this.writer = new JournalWriter(location.path);
    this.warn = warn;
    this.by = by;
  }

  async recordIntent(intent: Intent, options: IntentOptions): Promise<IntentResult> {
    // Nothing to check: appended as it comes, sharing the writer's fsyncs.
    if (!options.checkReplay && options.guard === undefined) {
      await this.writer.appendGrouped(this.recordOf(intent, [], new Date()));
      return { kind: 'new' };
    }
    return this.claims.submit(intent, options);
  }

  private recordOf(intent: Intent, lifted: readonly string[], at: Date): IntentRecord {
    const overrides = [...new Set([...(intent.overrides ?? []), ...lifted])];
    return {
      kind: 'intent',
      ...intent,
      ...(overrides.length > 0 ? { overrides } : {}),
      ...this.by,
      at: at.toISOString(),
    };
  }

  /**
   * A batch of claims under the journal's lock: one look-back for all of them, each weighed in
   * turn with the ones accepted before it, then their intents appended together and the lock let
   * go (their fsync follows). Another process's claim waits for the lock and sees them all.
   */
  private async settleClaims(batch: readonly Claim[]): Promise<void> {
    const lockPath = `${this.location.path}.lock`;
    const whoHolds = (holder: LockHolder | undefined) =>
      holder === undefined ? t().lock.unknownHolder : t().lock.holder(String(holder.pid), holder.host, holder.since);
    const lock = await lockWaiting(lockPath, journalLockWaitMs, {
      signal: this.stop,
      // A wait a person notices is said, with whose lock it is.
      onLongWait: (holder) => this.warn(t().lock.journalWaiting(lockPath, whoHolds(holder))),
    }).catch((error: unknown) => {
      // Its directory cannot be made or written (EROFS, EACCES): no more can the journal.
      throw errnoCodeOf(error) === undefined
        ? error
        : new LocalStorageError('write the journal', this.location.path, error);
    });
    if (lock instanceof LockBusy) {
      if (this.stop?.aborted) throw new InterruptedError(this.stop.reason as StopSignal);
      throw new LocalStorageError(
        'write the journal',
        this.location.path,
        new Error(t().lock.journalBusy(lockPath, whoHolds(lock.holder))),
        {
          hint: t().lock.journalBusyHint(lockPath),
        },
      );
    }
    let accepted: Accepted[];
    try {
      accepted = await this.acceptClaims(batch);
    } catch (error) {
      releaseQuietly(lock, this.warn);
      throw error;
    }
    // The lock is let go once the intents are in the file, where another process's look-back
    // reads them; each claim is answered once its intent is fsynced (no Payment leaves before).
    // The next batch goes on meanwhile, so intents share fsyncs as other appends do.
    await new Promise<void>((allWritten) => {
      let unwritten = accepted.length;
      const written = () => {
        if (--unwritten > 0) return;
        releaseQuietly(lock, this.warn);
        allWritten();
      };
      if (unwritten === 0) written();
      for (const { claim, record, kind } of accepted) {
        this.writer.appendGrouped(record, written).then(
          () => claim.resolve({ kind }),
          (error: unknown) => claim.reject(error),
        );
      }
    });
  }

  /** The recent payments of one gateway and agent, kept up to date across this process's claims. */
  private recentViewOf(owner: Owner): RecentView {
    const key = ownerKey(owner);
    let view = this.recentViews.get(key);
    if (view === undefined) {
      view = new RecentView(this.location.path, { gateway: owner.gateway, agentId: owner.agentId });
      this.recentViews.set(key, view);
    }
    return view;
  }

  /**
   * The claims weighed, under the lock: one look-back for all of them, each weighed in turn with
   * the ones accepted before it. A refused or conflicting claim is answered here; the accepted
   * ones are returned with their records, to be appended.
   */
  private async acceptClaims(batch: readonly Claim[]): Promise<Accepted[]> {
    const now = new Date();
    const accepted: Accepted[] = [];
    for (const group of groupedByOwner(batch)) {
      const reach = lookBackOfClaims(group);
      const view = this.recentViewOf(group[0]!.intent);
      const recent = reach === undefined ? [] : await view.payments(reach);
      for (const claim of group) {
        try {
          const earlier = claim.options.checkReplay
            ? await (await readers()).findIntent(this.location.path, claim.intent, this.warn)
            : undefined;
          if (earlier !== undefined && differingParameters(earlier, claim.intent).length > 0) {
            claim.resolve({ kind: 'conflict', earlier });
            continue;
          }
          // The same purchase again (the safe retry) passes the desk's rules: it can never pay twice.
          const lifted =
            earlier === undefined && claim.options.guard !== undefined ? claim.options.guard.decide(recent, now) : [];
          const record = this.recordOf(claim.intent, lifted, now);
          if (earlier === undefined) recent.push({ intent: record, state: undefined });
          // The view keeps this process's own intents only for rules that add payments up.
          if (claim.options.guard !== undefined && !claim.options.guard.sums) view.passOver([record]);
          accepted.push({ claim, record, kind: earlier === undefined ? 'new' : 'retry' });
        } catch (error) {
          claim.reject(error);
        }
      }
    }
    return accepted;
  }

  async recordOutcome(outcome: OutcomeRecord): Promise<void> {
    await this.writer.appendGrouped(outcome);
  }

  private async openEntries(filter: LedgerFilter): Promise<JournalEntry[]> {
    const since = filter.since?.getTime();
    if (this.open?.since !== since || this.open === undefined)
      this.open = { since, entries: await (await readers()).openEntries(this.location.path, filter, this.warn) };
    return this.open.entries;
  }

  async openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    const counts = new Map<string, OwnerCount>();
    for (const { intent } of await this.openEntries(filter)) {
      const key = ownerKey(intent);
      const count = counts.get(key) ?? { gateway: intent.gateway, agentId: intent.agentId, count: 0 };
      count.count++;
      counts.set(key, count);
    }
    return [...counts.values()];
  }

  /** One batch: the open transactions are in memory already, and each outcome is appended as it comes. */
  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    const mine = (await this.openEntries(filter)).filter(({ intent }) => ownerKey(intent) === ownerKey(owner));
    if (mine.length > 0) yield this.batchOf(mine);
  }

  /** A batch whose outcomes are appended as they come; one the journal cannot take is counted. */
  private batchOf(entries: JournalEntry[]): ClaimedBatch {
    let unrecorded = 0;
    let failure: unknown;
    return {
      entries,
      record: async (outcome) => {
        try {
          await this.writer.appendGrouped(outcome);
        } catch (error) {
          if (!(error instanceof LocalStorageError)) throw error;
          unrecorded++;
          failure ??= error;
        }
      },
      done: async () => (unrecorded === 0 ? { unrecorded } : { unrecorded, failure }),
    };
  }

  async entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    const all = await (await readers()).allEntries(this.location.path, filter, this.warn);
    const { operator } = filter;
    if (operator === undefined) return all;
    // Intents name their operator since the desk's guards came (older ones match no --operator).
    return {
      gateways: all.gateways,
      allGateways: all.allGateways,
      async *[Symbol.asyncIterator]() {
        for await (const entry of all) if (entry.intent.operator === operator) yield entry;
      },
    };
  }

  async chosenEntries(owner: Owner, chosen: ChosenTransactions): Promise<void> {
    await (await import('./chosen-entries.js')).chosenEntries(this.location.path, owner, chosen, this.warn);
  }

  async recentPayments(query: LookBackQuery | SetLookBackQuery): Promise<RecentPayment[]> {
    return (await import('./look-back.js')).recentPayments(this.location.path, query);
  }

  async *payments(query: PaymentsQuery): AsyncGenerator<PaymentRow[]> {
    yield* (await import('./payments.js')).journalPayments(this.location.path, query, this.warn);
  }

  async close(): Promise<void> {
    this.writer.close();
  }

  async transaction(transactionId: string, owner?: Owner): Promise<JournalEntry[]> {
    const { findTransaction } = await import('./find-transaction.js');
    const entries = await findTransaction(this.location.path, transactionId, this.warn);
    return owner === undefined ? entries : entries.filter(({ intent }) => ownerKey(intent) === ownerKey(owner));
  }
}
