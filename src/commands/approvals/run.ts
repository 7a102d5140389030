import { CancelledError, UsageError } from '../../errors.js';
import type { ApprovalRequest, Approvals } from '../../ledger/team-ledger.js';
import { optionalText, optionRecord, switchOption } from '../../options/values.js';
import { parseTransactionId } from '../../protocol/transaction-id.js';
import { journalGatewayOf } from '../../purchase/session.js';
import { teamLedgerOf } from '../../purchase/team-ledger.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';

/** `agentpay approvals`: the open requests, oldest first (a JSON object a line under --json). */
export async function runApprovals(_raw: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const requests = await (await teamLedgerOf(context, 'approvals')).team.approvals.open();
  if (out.json) {
    for (const request of requests) out.data(JSON.stringify(request));
    return;
  }
  if (requests.length === 0) return out.note(t().approvals.noneOpen);
  const { approvalsTable } = await import('../../render/approvals.js');
  out.data(approvalsTable(requests, out.style, t(), out.tableWidth));
}

/** The one request a decision means. A TransactionID is an agent's on one gateway, so two may
 * share it: the settings' gateway and agent choose (else the only one); none or two are named (exit 2). */
async function requestMeant(context: CommandContext, approvals: Approvals, id: string): Promise<ApprovalRequest> {
  const candidates = await approvals.byTransactionId(id);
  if (candidates.length === 0)
    throw new UsageError(t().approvals.refused(t().approvals.reasons.none(id), false), {
      hint: t().approvals.reasonHint,
    });
  const { settings } = context;
  const gateway = journalGatewayOf(settings, settings.baseUrl?.value);
  if (gateway === undefined && candidates.length === 1) return candidates[0]!;
  const agentId = settings.agentId?.value;
  const mine = candidates.filter(
    (request) => request.gateway === gateway && (agentId === undefined || request.agentId === agentId),
  );
  if (mine.length === 1) return mine[0]!;
  const { requestText } = await import('../../render/approvals.js');
  throw new UsageError(t().approvals.ambiguous(id, candidates.map((request) => requestText(request, t())).join('; ')), {
    hint: t().approvals.ambiguousHint,
  });
}

/** The purchase shown before it is decided; at a terminal, asked about unless --yes. */
async function confirmDecision(context: CommandContext, request: ApprovalRequest, decision: string, yes: boolean) {
  const { out } = context;
  const { requestText } = await import('../../render/approvals.js');
  const shown = t().approvals.deciding(decision === 'approved', requestText(request, t()));
  if (yes || !out.stdin.isTTY) return out.note(shown);
  const { terminalPrompter } = await import('../../prompts.js');
  const prompter = terminalPrompter({ stdin: out.stdin, stderr: out.stderr, color: out.errorStyle.enabled });
  if (!(await prompter.confirm({ message: `${shown}?`, initial: false, answers: { yes: t().yes, no: t().no } })))
    throw new CancelledError(t().approvals.notDecided);
}

/** approve and decline: one call of the database's function, which alone decides who may. */
async function decide(raw: unknown, context: CommandContext, decision: 'approved' | 'declined'): Promise<void> {
  const options = optionRecord(raw);
  const transactionId = parseTransactionId(String(options.txnId), '<txn-id>');
  const reason = optionalText(options.reason, '--reason');
  const yes = switchOption(options.yes, '--yes');
  const { out } = context;
  const { approvals } = (await teamLedgerOf(context, 'approvals')).team;
  const meant = await requestMeant(context, approvals, transactionId);
  await confirmDecision(context, meant, decision, yes);
  const request = await approvals.decide(meant, decision, reason);
  if (out.json) out.data(JSON.stringify(request));
  else {
    const said = decision === 'approved' ? t().approvals.approved : t().approvals.declined;
    out.note(said(transactionId, request.requestedBy));
  }
}

export const runApprove = (raw: unknown, context: CommandContext) => decide(raw, context, 'approved');
export const runDecline = (raw: unknown, context: CommandContext) => decide(raw, context, 'declined');
