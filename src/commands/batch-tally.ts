import { AgentpayError, ExitCode, type ExitCodeValue, mostSevere } from '../errors.js';
import type { Output } from '../output.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import { t } from '../run-scope.js';

/** The tally of a batch (status of many ids, reconcile): how many ended in each state, and
 * the batch's exit code, the most severe of its items. */
export class BatchTally {
  readonly counts: Record<TransactionState, number> = { success: 0, failed: 0, pending: 0, unknown: 0 };
  total = 0;
  /** Input lines that were not transaction ids: no look-up, counted apart; their exit code counts. */
  notIds = 0;
  private readonly exitCodes = new Set<ExitCodeValue>();

  add(state: TransactionState, exitCode: ExitCodeValue): void {
    this.total++;
    this.counts[state]++;
    this.exitCodes.add(exitCode);
  }

  addNotAnId(exitCode: ExitCodeValue): void {
    this.notIds++;
    this.exitCodes.add(exitCode);
  }

  get exitCode(): ExitCodeValue {
    return mostSevere(this.exitCodes);
  }

  /** Ends the batch: the summary on stderr, or as the error when an item was not a success.
   * A local failure (the journal could not record the outcomes) ends it instead, after the summary. */
  finish(heading: string, out: Output, localFailure?: AgentpayError): void {
    const { success, failed, pending, unknown } = this.counts;
    const summary = t().batch.summary(heading, { success, failed, pending, unknown });
    if (localFailure) {
      out.note(summary);
      throw localFailure;
    }
    if (this.exitCode !== ExitCode.success) throw new AgentpayError(summary, this.exitCode);
    out.note(out.errorStyle.dim(summary));
  }
}
