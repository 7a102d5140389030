import { AgentpayError, ExitCode } from '../errors.js';
import type { Intent } from '../ledger/ledger.js';
import { t } from '../run-scope.js';
import { type DeskPolicy, deskFindings, enforceDesk } from './desk-guard.js';
import { nothingSent } from './execute-payment.js';
import type { PurchaseContext } from './session.js';
import { teamLedgerOf } from './team-ledger.js';

/** A purchase recorded for a supervisor's approval: nothing was sent yet (exit 3, as a payment not final). */
export class AwaitingApprovalError extends AgentpayError {
  override name = 'AwaitingApprovalError';
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, ExitCode.pendingOrUnknown, options);
  }
}

/** The two-person rule (docs/desk-safety.md, Approval): a purchase over the threshold, or a
 * duplicate top-up, recorded frozen for a supervisor; nothing sent. Only a team ledger can. */

export interface ApprovalRequested {
  needs: string[];
  expiresAt: string;
}

/** Records the purchase for approval; throws AwaitingApprovalError (exit 3) once it is recorded.
 * The desk's other limits hold as for a payment (a supervisor approves a threshold or a
 * duplicate, not a breach of the desk's limits, which --over-limit is for). */
export async function requestPurchaseApproval(
  context: PurchaseContext,
  intent: Intent,
  policy: DeskPolicy,
  told: (request: ApprovalRequested) => void,
): Promise<never> {
  let request: ApprovalRequested;
  try {
    const ledger = await teamLedgerOf(context, 'approvals');
    const findings = await deskFindings(context, async () => ledger, intent, { ...policy, duplicates: 'allow' });
    enforceDesk({ breaches: findings.breaches, duplicates: [] }, policy);
    const needs = [
      ...(findings.approval === undefined ? [] : ['approval-over']),
      ...(findings.duplicates.length === 0 ? [] : ['duplicate']),
    ];
    if (needs.length === 0) needs.push('asked');
    const expiresAt = await ledger.team.approvals.request(intent, needs, context.settings.desk.approvalTtlMs);
    request = { needs, expiresAt };
  } catch (error) {
    throw nothingSent(error);
  }
  told(request);
  const { localTimeText } = await import('../render/receipt.js');
  const expires = localTimeText(request.expiresAt, -new Date(request.expiresAt).getTimezoneOffset(), t());
  throw new AwaitingApprovalError(t().approvals.requested(intent.transactionId, expires), {
    hint: t().approvals.requestedHint(intent.transactionId),
  });
}
