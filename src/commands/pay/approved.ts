import { TransactionPendingError, UsageError } from '../../errors.js';
import type { Ledger, Owner } from '../../ledger/ledger.js';
import { optionRecord } from '../../options/values.js';
import { parseTransactionId } from '../../protocol/transaction-id.js';
import { executePayment, nothingSent } from '../../purchase/execute-payment.js';
import { errorOfView } from '../../purchase/outcome.js';
import { requireOpenShift } from '../../purchase/shift-guard.js';
import { teamLedgerOf } from '../../purchase/team-ledger.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { guardLivePay, yesOption } from '../live-guard.js';

/** What --approved leaves to the frozen purchase: given with it, the command is refused whole. */
const frozen = [
  ['service', '--service'],
  ['account', '--account'],
  ['currency', '--currency'],
  ['invoiceId', '--invoice-id'],
  ['amount', '--amount'],
  ['txnId', '--txn-id'],
  ['requestApproval', '--request-approval'],
  ['dryRun', '--dry-run'],
  ['overLimit', '--over-limit'],
  ['allowDuplicate', '--allow-duplicate'],
] as const;

// `agentpay pay --approved <txn>`: the approved purchase sent as it was frozen. The database turns the approval
// into the intent once, so a second run sends nothing (docs/desk-safety.md, Approval).
export async function runApprovedPay(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = optionRecord(rawOptions);
  const given = frozen.find(([name]) => options[name] !== undefined && options[name] !== false);
  if (given !== undefined) throw new UsageError(t().approvals.approvedAlone(given[1]));
  const transactionId = parseTransactionId(String(options.approved), '--approved');
  const { out } = context;
  const live = guardLivePay(context, { yes: yesOption(rawOptions), dryRun: false });
  const ledger = await teamLedgerOf(context, 'approvals').catch((error: unknown) => {
    throw nothingSent(error);
  });
  const session = await context.openGateway();
  try {
    const owner = { gateway: session.gateway, agentId: session.agentId };
    const { approvals } = ledger.team;
    if (live.confirm !== undefined) {
      // At a terminal through a live profile: asked about the frozen purchase before it is taken.
      const request = await approvals.find({ ...owner, transactionId });
      if (request !== undefined) await live.confirm(request);
    }
    // Before the approval is taken: taken, it is the intent, and the payment must then go.
    await requireOpenShift(context).catch((error: unknown) => {
      throw nothingSent(error);
    });
    const approved = await approvals.use({ ...owner, transactionId }).catch((error: unknown) => {
      throw nothingSent(error);
    });
    if (approved === 'used') return await showSentAlready(context, ledger, owner, transactionId);
    const { intent } = approved;
    const input = { ...intent, invoiceId: intent.invoiceId ?? undefined };
    const { view, error } = await executePayment(context, session, input, {
      checkReplay: false,
      notes: { voucher: intent.voucher, overrides: intent.overrides },
      recorded: Promise.resolve({ kind: 'new', attempt: approved.attempt }),
      spinner: true,
    });
    const { renderReceipt, transactionJson } = await import('../../render/transaction.js');
    out.data(
      out.json
        ? transactionJson(view, { requestedBy: approved.requestedBy, approvedBy: approved.approvedBy })
        : renderReceipt(view, out.style, 'payment', t()),
    );
    if (error) throw error;
  } finally {
    await session.close();
  }
}

/** A second `--approved`: what the ledger knows of the payment the first one sent; nothing is sent again. */
async function showSentAlready(
  context: CommandContext,
  ledger: Ledger,
  owner: Owner,
  transactionId: string,
): Promise<void> {
  const { out, settings } = context;
  const [entry] = await ledger.transaction(transactionId, owner);
  const view = entry?.outcome?.view;
  const state = t().states[view?.state ?? 'unknown'];
  if (view === undefined)
    throw new TransactionPendingError(t().approvals.sentAlready(transactionId, state), {
      hint: t().approvals.sentAlreadyHint(transactionId),
    });
  out.warn(t().approvals.sentAlready(transactionId, state));
  const { renderReceipt, transactionJson } = await import('../../render/transaction.js');
  out.data(out.json ? transactionJson(view) : renderReceipt(view, out.style, 'payment', t()));
  const error = errorOfView(view, settings.codes.table);
  if (error) throw error;
}
