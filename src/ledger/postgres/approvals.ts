import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';
import { intentOfRow, type Query, type Row, text } from '../sql/rows.js';
import type { ApprovalKey, ApprovalRequest, Approvals, ApprovedPurchase } from '../team-ledger.js';
import { sqlStateOf } from './refusals.js';

/** The two-person rule's calls (approvals-schema.ts holds the SQL that enforces it). */

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value === null ? null : String(value));
const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));

function requestOfRow(row: Row): ApprovalRequest {
  const { transactionId, gateway, agentId, service, account, amount, currency, invoiceId } = intentOfRow(row);
  return {
    ...{ transactionId, gateway, agentId, service, account, amount, currency, invoiceId },
    voucher: textOrNull(row.voucher),
    needs: Array.isArray(row.needs) ? row.needs.map(String) : [],
    requestedBy: text(row.requested_by),
    requestedAt: text(iso(row.requested_at)),
    expiresAt: text(iso(row.expires_at)),
    decision: row.decision === 'approved' || row.decision === 'declined' ? row.decision : null,
    decidedBy: textOrNull(row.decided_by),
    decidedAt: iso(row.decided_at),
    reason: textOrNull(row.reason),
  };
}

/** The SQLSTATEs approvals-schema.ts raises, and what each says to a person. */
const refusals: Record<string, (id: string, role: string) => string> = {
  APSUP: (_id, role) => t().approvals.reasons.notSupervisor(role),
  APOWN: (_id, role) => t().approvals.reasons.ownRequest(role),
  APEXP: (id) => t().approvals.reasons.expired(id),
  APDON: (id) => t().approvals.reasons.decided(id),
  APNON: (id) => t().approvals.reasons.none(id),
  APWAI: (id) => t().approvals.reasons.waiting(id),
  APDEC: (id) => t().approvals.reasons.declined(id),
  APTXN: (id) => t().approvals.reasons.taken(id),
};

/** A refusal of the database's as a usage error (exit 2); any other failure as it is. */
function refusal(error: unknown, id: string, role: string, sent: boolean): unknown {
  const code = sqlStateOf(error);
  const reason = code === undefined ? undefined : refusals[code];
  if (reason === undefined) return error;
  return new UsageError(t().approvals.refused(reason(id, role), sent), {
    cause: error,
    hint: t().approvals.reasonHint,
  });
}

const selectRequests = 'SELECT * FROM agentpay_approvals a WHERE';

/** The approvals of the team ledger whose statements `run` sends, each in the connection's turn. */
export function approvalsOf(run: Query): Approvals {
  const sessionUser = async () => text((await run('SELECT session_user AS role', []).catch(() => []))[0]?.role ?? '');
  return {
    request: async (intent, needs, ttlMs) => {
      const values: unknown[] = [intent.gateway, intent.agentId, intent.transactionId, intent.service, intent.account];
      values.push(intent.amount, intent.currency, intent.invoiceId, intent.voucher ?? null);
      const rows = await run(
        'SELECT agentpay_request_approval($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS expires_at',
        [...values, needs, Math.ceil(ttlMs / 1000)],
      ).catch((error: unknown) => {
        throw refusal(error, intent.transactionId, '', true);
      });
      return text(iso(rows[0]?.expires_at));
    },
    decide: async ({ gateway, agentId, transactionId }, decision, reason) => {
      const values = [gateway, agentId, transactionId, decision, reason ?? null];
      const rows = await run('SELECT * FROM agentpay_decide_approval($1, $2, $3, $4, $5)', values).catch(
        async (error: unknown) => {
          throw refusal(error, transactionId, await sessionUser(), false);
        },
      );
      return requestOfRow(rows[0]!);
    },
    byTransactionId: async (transactionId) =>
      (await run(`${selectRequests} a.transaction_id = $1 ORDER BY a.seq`, [transactionId])).map(requestOfRow),
    open: async () =>
      (await run(`${selectRequests} a.decision IS NULL AND a.expires_at > now() ORDER BY a.seq`, [])).map(requestOfRow),
    find: async ({ gateway, agentId, transactionId }) => {
      const where = 'a.gateway = $1 AND a.agent_id = $2 AND a.transaction_id = $3';
      const [row] = await run(`${selectRequests} ${where}`, [gateway, agentId, transactionId]);
      return row === undefined ? undefined : requestOfRow(row);
    },
    use: (request) => useApproval(run, request),
  };
}

/** Turns an approved request into its intent, in one statement of the database's: it cannot be used twice. */
async function useApproval(run: Query, request: ApprovalKey): Promise<ApprovedPurchase | 'used'> {
  const { transactionId, ...owner } = request;
  let rows: Row[];
  try {
    rows = await run('SELECT * FROM agentpay_use_approval($1, $2, $3, $4, $5)', [
      owner.gateway,
      owner.agentId,
      transactionId,
      randomUUID(),
      hostname(),
    ]);
  } catch (error) {
    if (sqlStateOf(error) === 'APUSE') return 'used';
    throw refusal(error, transactionId, '', true);
  }
  const row = rows[0]!;
  const requestedBy = text(row.requested_by);
  const approvedBy = text(row.decided_by);
  const { service, account, amount, currency, invoiceId, voucher } = intentOfRow(row);
  return {
    attempt: text(row.attempt_seq),
    requestedBy,
    approvedBy,
    intent: {
      ...{ ...owner, transactionId, service, account, amount, currency, invoiceId },
      ...(voucher === undefined ? {} : { voucher }),
      overrides: [`requested-by:${requestedBy}`, `approved-by:${approvedBy}`],
    },
  };
}
