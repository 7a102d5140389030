import { GatewayRefusedError, PaymentOutcomeUnknownError, TransactionPendingError } from '../errors.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import { isRefusedLookUp, type TransactionView } from '../protocol/transaction-view.js';
import { classifyHint } from '../settings/code-lists.js';

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
      return new GatewayRefusedError(`the gateway refused transaction ${view.transactionId}: ${view.message || 'no message'} (ResponseStatus ${view.status})`, view.status ?? '');
    case 'pending':
      return new TransactionPendingError(`transaction ${view.transactionId} is still in progress (ResponseStatus ${view.status})`, {
        hint: `follow it with: agentpay status --wait 120 ${view.transactionId}`,
      });
    case 'unknown':
      return unknownOutcomeError(view, codes);
  }
}

/** `ResponseStatus 115 "Ошибка: …"`: a gateway's code and Message, exactly as sent. */
export function answerText(view: Pick<TransactionView, 'status' | 'message'>): string {
  return `ResponseStatus ${view.status ?? '-'}${view.message ? ` ${JSON.stringify(view.message)}` : ''}`;
}

/**
 * An open transaction the gateway did answer about: "not found" (it may not have caught up),
 * a refused look-up (wrong credentials: nothing learned), or a code its table does not
 * classify. Its code and Message are shown as sent.
 */
function unknownOutcomeError(view: TransactionView, codes: CodeTable): PaymentOutcomeUnknownError {
  const id = view.transactionId;
  if (view.status === null) return new PaymentOutcomeUnknownError(id, view.message);
  const said = answerText(view);
  if (isRefusedLookUp(view, codes)) {
    return new PaymentOutcomeUnknownError(id, `the gateway refused the look-up itself (${said}), which says nothing of the payment`, {
      hint: 'check the agent id and password with `agentpay doctor`, then look again',
    });
  }
  if (classifyCode(view.status, codes) === 'notFound') {
    return new PaymentOutcomeUnknownError(id, `not found at the gateway (${said})`, {
      hint: `a payment made moments ago may not have reached it yet: look again with \`agentpay status ${id}\`; \`agentpay reconcile\` closes a journaled one as never made once it is older than --grace`,
    });
  }
  return new PaymentOutcomeUnknownError(id, `the gateway answered ${said}, a code not classified for this gateway, so it is not final`, {
    hint: `${classifyHint(view.status)}; until then it stays open and \`agentpay reconcile\` asks the gateway again`,
  });
}
