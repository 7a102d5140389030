import {
  ExitCode,
  type ExitCodeValue,
  GatewayRefusedError,
  PaymentOutcomeUnknownError,
  TransactionPendingError,
} from '../errors.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import { isRefusedLookUp, type TransactionView } from '../protocol/transaction-view.js';
import { t } from '../run-scope.js';
import { classifyHint } from '../settings/code-lists.js';

// A transaction's exit code as status and a bulk run's rows report it: a refusal is the payment's outcome.
export const exitCodeOfState: Record<TransactionView['state'], ExitCodeValue> = {
  success: ExitCode.success,
  failed: ExitCode.declined,
  pending: ExitCode.pendingOrUnknown,
  unknown: ExitCode.pendingOrUnknown,
};

/** A settled payment: what the gateway said of it, and the error to end the command with. */
export interface PaymentOutcome {
  view: TransactionView;
  /** Set when the outcome is not success. */
  error: GatewayRefusedError | TransactionPendingError | PaymentOutcomeUnknownError | undefined;
}

/** The error a transaction that is not a success ends the command with (pay, buy, status). */
export function errorOfView(view: TransactionView, codes: CodeTable): PaymentOutcome['error'] {
  switch (view.state) {
    case 'success':
      return undefined;
    case 'failed':
      return new GatewayRefusedError(
        t().purchase.refused(view.transactionId, view.message || t().purchase.noMessage, view.status ?? '-'),
        view.status ?? '',
      );
    case 'pending':
      return new TransactionPendingError(t().purchase.pending(view.transactionId, view.status ?? '-'), {
        hint: t().purchase.pendingHint(view.transactionId),
      });
    case 'unknown':
      return unknownOutcomeError(view, codes);
  }
}

/** `ResponseStatus 115 "Ошибка: …"`: a gateway's code and Message, exactly as sent. */
export function answerText(view: Pick<TransactionView, 'status' | 'message'>): string {
  return `ResponseStatus ${view.status ?? '-'}${view.message ? ` ${JSON.stringify(view.message)}` : ''}`;
}

// An open transaction the gateway answered about: "not found", a refused look-up, or an unclassified code; its
// code and Message are shown as sent.
function unknownOutcomeError(view: TransactionView, codes: CodeTable): PaymentOutcomeUnknownError {
  const id = view.transactionId;
  if (view.status === null) return new PaymentOutcomeUnknownError(id, view.message);
  const said = answerText(view);
  if (isRefusedLookUp(view, codes)) {
    return new PaymentOutcomeUnknownError(id, t().purchase.lookUpRefused(said), {
      hint: t().purchase.lookUpRefusedHint,
    });
  }
  if (classifyCode(view.status, codes) === 'notFound') {
    return new PaymentOutcomeUnknownError(id, t().purchase.notFound(said), {
      hint: t().purchase.notFoundHint(id),
    });
  }
  return new PaymentOutcomeUnknownError(id, t().purchase.unclassified(said), {
    hint: t().purchase.unclassifiedHint(classifyHint(view.status)),
  });
}
