import { randomUUID } from 'node:crypto';
import { LocalStorageError } from '../../errors.js';
import { claimedBatchOf } from '../claimed-batch.js';
import type { AttemptRef, ClaimedBatch, JournalEntry, RecordedBy } from '../ledger.js';
import type { OutcomeRecord } from '../records.js';
import { outcomeColumns } from '../sql/rows.js';
import { reasonOf } from './connect.js';
import { type fallbackOf, keepWaiting, keptNote, type WaitingOutcome } from './fallback.js';
import * as sql from './queries.js';
import type { ConnectionTurn } from './turn.js';

/** Outcomes written to the team ledger, or kept on this machine (fallback.ts) when it cannot take them. */
export class OutcomeWriter {
  constructor(
    private readonly turn: ConnectionTurn,
    readonly fallback: ReturnType<typeof fallbackOf>,
    private readonly by: () => RecordedBy,
    private readonly note: (message: string) => void,
    private readonly shown: string,
  ) {}

  private waiting(record: OutcomeRecord, answers: AttemptRef): WaitingOutcome {
    return { recordId: randomUUID(), ...this.by(), record, ...(answers === undefined ? {} : { answers }) };
  }

  /** Appends outcomes in one statement; throws what the database said. */
  async insert(outcomes: readonly WaitingOutcome[]): Promise<void> {
    if (outcomes.length > 0) await this.turn.raw(sql.insertOutcomes, outcomeColumns(outcomes));
  }

  /** Outcomes the database did not take, kept here; throws LocalStorageError when even that fails. */
  private keepForLater(outcomes: readonly WaitingOutcome[], error: unknown): void {
    keepWaiting(this.fallback, outcomes);
    this.note(keptNote(this.shown, reasonOf(this.turn.connection.lost.error ?? error), outcomes));
  }

  async record(outcome: OutcomeRecord, answers: AttemptRef): Promise<void> {
    const waiting = this.waiting(outcome, answers);
    try {
      await this.insert([waiting]);
    } catch (error) {
      this.keepForLater([waiting], error);
    }
  }

  /** A claimed batch: its outcomes written with the commit that lets the claim go, or kept in the fallback. */
  claimedBatch(entries: JournalEntry[], attempts: ReadonlyMap<string, string>): ClaimedBatch {
    const waitingOf = (outcome: OutcomeRecord) => this.waiting(outcome, attempts.get(outcome.transactionId));
    return claimedBatchOf(entries, waitingOf, (learned) => this.endClaim(learned));
  }

  private async endClaim(learned: readonly WaitingOutcome[]): Promise<{ unrecorded: number; failure?: unknown }> {
    try {
      await this.insert(learned);
      await this.turn.raw('COMMIT');
      return { unrecorded: 0 };
    } catch (error) {
      await this.turn.raw('ROLLBACK').catch(() => undefined);
      if (learned.length === 0) throw this.turn.unreachable(error);
      try {
        this.keepForLater(learned, error);
        return { unrecorded: 0 };
      } catch (kept) {
        if (!(kept instanceof LocalStorageError)) throw kept;
        return { unrecorded: learned.length, failure: kept };
      }
    }
  }
}
