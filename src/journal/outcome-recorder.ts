import { LocalStorageError } from '../errors.js';
import type { OutcomeRecord } from './records.js';
import { JournalWriter } from './writer.js';

/**
 * Appends outcomes for a batch (reconcile) that must report what it learned even when the
 * journal cannot take it (a read-only file system, a full disk): an outcome that cannot be
 * written is counted, not thrown, and the batch ends with `failure()` after its output.
 */
export class OutcomeRecorder {
  private readonly writer: JournalWriter;
  private firstFailure: LocalStorageError | undefined;
  private unrecorded = 0;

  constructor(path: string) {
    this.writer = new JournalWriter(path);
  }

  /** False when the journal could not take it (the reason is kept for failure()). */
  record(record: OutcomeRecord): boolean {
    try {
      this.writer.append(record);
      return true;
    } catch (error) {
      if (!(error instanceof LocalStorageError)) throw error;
      this.firstFailure ??= error;
      this.unrecorded++;
      return false;
    }
  }

  /** The error to end with when some outcome was not recorded: they were printed `where` (above, on stdout). */
  failure(where: string): LocalStorageError | undefined {
    if (this.firstFailure === undefined) return undefined;
    const count = this.unrecorded === 1 ? '1 outcome learned from the gateway is' : `${this.unrecorded} outcomes learned from the gateway are`;
    return new LocalStorageError('write the journal', this.writer.path, this.firstFailure.cause, {
      consequence: `${count} printed ${where} but not recorded`,
      hint: `${this.firstFailure.hint}; then run reconcile again (it asks the gateway again)`,
    });
  }

  close(): void {
    this.writer.close();
  }
}
