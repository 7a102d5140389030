import { AgentpayError, ExitCode, type ExitCodeValue, LocalStorageError } from '../../errors.js';
import { t } from '../../i18n/current.js';
import type { JournalEntry, Ledger } from '../../ledger/ledger.js';
import { type CodeTable, classifyCode } from '../../protocol/codes.js';
import {
  isRefusedLookUp,
  speaksOfPayment,
  type TransactionView,
  unknownView,
  viewOfStatusAnswer,
} from '../../protocol/transaction-view.js';
import { answerText } from '../../purchase/outcome.js';
import type { GatewaySession } from '../context.js';

/** Settling one open ledger entry by Status, as `reconcile` does it (and `reconcile --registry --settle`). */

export interface Settled {
  entry: JournalEntry;
  view: TransactionView;
  exitCode: ExitCodeValue;
  /** Whether the answer told us something worth a journal line. */
  learned: boolean;
  /** The gateway's code when the table does not classify it, to list at the end. */
  unclassified?: string;
}

/**
 * The exit code of a settled payment, as `reconcile` reports it: a refusal closes the entry
 * and is work done, success (status, whose refusal is "declined", has its own table).
 */
const reconcileExitCodeOfState = {
  success: ExitCode.success,
  failed: ExitCode.success,
  pending: ExitCode.pendingOrUnknown,
  unknown: ExitCode.pendingOrUnknown,
};

function sentFieldsOf(entry: JournalEntry) {
  const { intent } = entry;
  return {
    transactionId: intent.transactionId,
    service: intent.service,
    account: intent.account,
    amount: intent.amount,
    currency: intent.currency,
  };
}

/**
 * Asks Status about one open journal entry. Only a final code closes it: 10, a failedCodes
 * code about the transaction, or a notFoundCodes code once the intent is older than the grace
 * period (a Payment still on its way may yet arrive) and the gateway never answered about it
 * (a lagging gateway may lose sight of a payment it took). A code the table does not classify,
 * or a refused look-up, leaves it open.
 */
export async function settleEntry(
  session: GatewaySession,
  entry: JournalEntry,
  codes: CodeTable,
  graceMs: number,
): Promise<Settled> {
  const sent = sentFieldsOf(entry);
  let answer;
  try {
    answer = await session.client.status(entry.intent.transactionId);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    return { entry, view: unknownView(sent, 'Status', error.message), exitCode: error.exitCode, learned: false };
  }
  const view = viewOfStatusAnswer(answer, sent, codes);
  const codeClass = classifyCode(answer.status, codes);
  if (isRefusedLookUp(view, codes)) {
    const refused = unknownView(sent, 'Status', t().reconcile.lookUpRefused(answerText(view)));
    return { entry, view: refused, exitCode: ExitCode.pendingOrUnknown, learned: false };
  }
  if (codeClass === 'notFound') {
    const age = Date.now() - Date.parse(entry.intent.at);
    const earlier = entry.outcome?.view;
    if (earlier !== undefined && speaksOfPayment(earlier, codes)) {
      const lost = unknownView(sent, 'Status', t().reconcile.lostNow(answerText(earlier)));
      return { entry, view: lost, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    if (age < graceMs) {
      const waiting = unknownView(sent, 'Status', t().reconcile.notFoundYet(Math.round(age / 1000), graceMs / 1000));
      return { entry, view: waiting, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    const neverMade: TransactionView = {
      ...view,
      state: 'failed',
      message: `never made: the gateway has no such transaction (${answer.message || `ResponseStatus ${answer.status}`})`,
    };
    return { entry, view: neverMade, exitCode: ExitCode.success, learned: true };
  }
  const learned = view.state !== entry.outcome?.view.state || view.status !== entry.outcome.view.status;
  return {
    entry,
    view,
    exitCode: reconcileExitCodeOfState[view.state],
    learned,
    ...(codeClass === 'unclassified' ? { unclassified: answer.status } : {}),
  };
}

/** The error to end with when some outcome learned was recorded nowhere: they were printed `where`. */
export function unrecordedFailure(
  unrecorded: { count: number; failure: unknown },
  ledger: Ledger,
  where: string,
): LocalStorageError | undefined {
  if (unrecorded.count === 0) return undefined;
  const first = unrecorded.failure instanceof LocalStorageError ? unrecorded.failure : undefined;
  const count =
    unrecorded.count === 1
      ? '1 outcome learned from the gateway is'
      : `${unrecorded.count} outcomes learned from the gateway are`;
  return new LocalStorageError(
    'write the ledger',
    first?.path ?? ledger.location.shown,
    first?.cause ?? unrecorded.failure,
    {
      consequence: `${count} printed ${where} but not recorded`,
      hint: `${first?.hint ?? 'free the space or fix the permissions'}; then run reconcile again (it asks the gateway again)`,
    },
  );
}
