import { type AgentpayError, ExitCode, type ExitCodeValue, ReplayMissError } from '../errors.js';
import type { JournalEntry } from '../ledger/ledger.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import type { GatewayAnswer } from '../protocol/envelope.js';
import {
  isRefusedLookUp,
  speaksOfPayment,
  type TransactionView,
  unknownView,
  viewOfStatusAnswer,
} from '../protocol/transaction-view.js';
import { t } from '../run-scope.js';
import { answerText } from './outcome.js';

// What a Status answer (or the error instead) tells of a transaction the ledger holds, by reconcile's rules:
// one place for reconcile, shift close --settle, status and buy, so each records the same word.
export interface SettledWord {
  view: TransactionView;
  exitCode: ExitCodeValue;
  /** Whether the answer told us something worth a ledger record. */
  learned: boolean;
  /** The gateway's code when the table does not classify it, to list at the end. */
  unclassified?: string;
}

// A settled payment's exit code as reconcile reports it: a refusal closes the entry and is work done.
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

// Only a final code closes an entry: 10, a failedCodes code about the transaction, or a notFoundCodes code past
// the grace period for a payment the gateway never answered about (docs/reliability.md). An unclassified
// code or a refused look-up leaves it open; a replay without a recording knows it was never made.
export function settledWord(
  entry: JournalEntry,
  asked: { answer: GatewayAnswer } | { error: AgentpayError },
  codes: CodeTable,
  graceMs: number,
): SettledWord {
  const sent = sentFieldsOf(entry);
  if ('error' in asked) return failedLookUp(entry, asked.error);
  const { answer } = asked;
  const view = viewOfStatusAnswer(answer, sent, codes);
  const codeClass = classifyCode(answer.status, codes);
  if (isRefusedLookUp(view, codes)) {
    const refused = unknownView(sent, 'Status', t().reconcile.lookUpRefused(answerText(view)));
    return { view: refused, exitCode: ExitCode.pendingOrUnknown, learned: false };
  }
  if (codeClass === 'notFound') {
    const age = Date.now() - Date.parse(entry.intent.at);
    const earlier = entry.outcome?.view;
    if (earlier !== undefined && speaksOfPayment(earlier, codes)) {
      const lost = unknownView(sent, 'Status', t().reconcile.lostNow(answerText(earlier)));
      return { view: lost, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    if (age < graceMs) {
      const waiting = unknownView(sent, 'Status', t().reconcile.notFoundYet(Math.round(age / 1000), graceMs / 1000));
      return { view: waiting, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    const said = answer.message || `ResponseStatus ${answer.status}`;
    const neverMade: TransactionView = {
      ...view,
      state: 'failed',
      message: `never made: the gateway has no such transaction (${said})`,
    };
    return { view: neverMade, exitCode: ExitCode.success, learned: true };
  }
  const learned = view.state !== entry.outcome?.view.state || view.status !== entry.outcome.view.status;
  return {
    view,
    exitCode: reconcileExitCodeOfState[view.state],
    learned,
    ...(codeClass === 'unclassified' ? { unclassified: answer.status } : {}),
  };
}

/** A look-up that got no answer learns nothing, unless a replay says its Payment was answered by no recording. */
function failedLookUp(entry: JournalEntry, error: AgentpayError): SettledWord {
  const sent = sentFieldsOf(entry);
  if (error instanceof ReplayMissError && error.paymentUnanswered) {
    // The ledger is data: its words in English, whatever language this run speaks.
    const message = 'never made: the replay answered its Payment with no recording';
    const neverMade: TransactionView = { ...unknownView(sent, 'Status', message), state: 'failed' };
    return { view: neverMade, exitCode: ExitCode.success, learned: true };
  }
  return { view: unknownView(sent, 'Status', error.message), exitCode: error.exitCode, learned: false };
}
