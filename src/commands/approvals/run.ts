import { t } from '../../i18n/current.js';
import { optionalText, optionRecord } from '../../options/values.js';
import { parseTransactionId } from '../../protocol/transaction-id.js';
import { teamLedgerOf } from '../../purchase/approval.js';
import type { CommandContext } from '../context.js';

/** `agentpay approvals`: the open requests, oldest first (a JSON object a line under --json). */
export async function runApprovals(_raw: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const ledger = await teamLedgerOf(context);
  const { openApprovals } = await import('../../ledger/postgres/approvals.js');
  const requests = await openApprovals(ledger);
  if (out.json) {
    for (const request of requests) out.data(JSON.stringify(request));
    return;
  }
  if (requests.length === 0) return out.note(t().approvals.noneOpen);
  const { approvalsTable } = await import('../../render/approvals.js');
  out.data(approvalsTable(requests, out.style, t()));
}

/** approve and decline: one call of the database's function, which alone decides who may. */
async function decide(raw: unknown, context: CommandContext, decision: 'approved' | 'declined'): Promise<void> {
  const options = optionRecord(raw);
  const transactionId = parseTransactionId(String(options.txnId), '<txn-id>');
  const reason = optionalText(options.reason, '--reason');
  const { out } = context;
  const ledger = await teamLedgerOf(context);
  const { decideApproval } = await import('../../ledger/postgres/approvals.js');
  const request = await decideApproval(ledger, transactionId, decision, reason);
  if (out.json) out.data(JSON.stringify(request));
  else {
    const said = decision === 'approved' ? t().approvals.approved : t().approvals.declined;
    out.note(said(transactionId, request.requestedBy));
  }
}

export const runApprove = (raw: unknown, context: CommandContext) => decide(raw, context, 'approved');
export const runDecline = (raw: unknown, context: CommandContext) => decide(raw, context, 'declined');
