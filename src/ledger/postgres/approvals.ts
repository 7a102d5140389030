import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';
import type { Intent, Owner } from '../ledger.js';
import type { Row } from '../sql/rows.js';
import type { PostgresLedger } from './postgres-ledger.js';
import { sqlStateOf } from './refusals.js';

/**
 * The two-person rule on the team ledger (approvals-schema.ts holds the SQL that enforces it):
 * asking, deciding and paying an approved purchase, each one call of a database function; the
 * refusals the database raises, worded for a person (exit 2).
 */

export interface ApprovalRequest {
  transactionId: string;
  gateway: string;
  agentId: string;
  service: string;
  account: string;
  amount: string;
  currency: string;
  invoiceId: string | null;
  voucher: string | null;
  needs: string[];
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
  decision: 'approved' | 'declined' | null;
  decidedBy: string | null;
  decidedAt: string | null;
  reason: string | null;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value === null ? null : String(value));
const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));

function requestOfRow(row: Row): ApprovalRequest {
  return {
    transactionId: String(row.transaction_id),
    gateway: String(row.gateway),
    agentId: String(row.agent_id),
    service: String(row.service),
    account: String(row.account),
    amount: String(row.amount),
    currency: String(row.currency),
    invoiceId: textOrNull(row.invoice_id),
    voucher: textOrNull(row.voucher),
    needs: Array.isArray(row.needs) ? row.needs.map(String) : [],
    requestedBy: String(row.requested_by),
    requestedAt: String(iso(row.requested_at)),
    expiresAt: String(iso(row.expires_at)),
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

/** The frozen purchase recorded for a supervisor; nothing is sent. Returns when the request expires. */
export async function requestApproval(
  ledger: PostgresLedger,
  intent: Intent,
  needs: readonly string[],
  ttlMs: number,
): Promise<string> {
  const rows = await ledger
    .run('SELECT agentpay_request_approval($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) AS expires_at', [
      intent.gateway,
      intent.agentId,
      intent.transactionId,
      intent.service,
      intent.account,
      intent.amount,
      intent.currency,
      intent.invoiceId,
      intent.voucher ?? null,
      needs,
      Math.ceil(ttlMs / 1000),
    ])
    .catch((error: unknown) => {
      throw refusal(error, intent.transactionId, '', true);
    });
  return String(iso(rows[0]?.expires_at));
}

/** A supervisor's decision on the request of this gateway, agent and TransactionID; the request as it now stands. */
export async function decideApproval(
  ledger: PostgresLedger,
  request: Owner & { transactionId: string },
  decision: 'approved' | 'declined',
  reason: string | undefined,
): Promise<ApprovalRequest> {
  const { gateway, agentId, transactionId } = request;
  const rows = await ledger
    .run('SELECT * FROM agentpay_decide_approval($1, $2, $3, $4, $5)', [
      gateway,
      agentId,
      transactionId,
      decision,
      reason ?? null,
    ])
    .catch(async (error: unknown) => {
      throw refusal(error, transactionId, await sessionUser(ledger), false);
    });
  return requestOfRow(rows[0]!);
}

/** Every request under this TransactionID, on any gateway or agent, oldest first. */
export async function requestsById(ledger: PostgresLedger, transactionId: string): Promise<ApprovalRequest[]> {
  const rows = await ledger.run('SELECT * FROM agentpay_approvals a WHERE a.transaction_id = $1 ORDER BY a.seq', [
    transactionId,
  ]);
  return rows.map(requestOfRow);
}

async function sessionUser(ledger: PostgresLedger): Promise<string> {
  const rows = await ledger.run('SELECT session_user AS role', []).catch(() => []);
  return String(rows[0]?.role ?? '');
}

/** The requests that await a decision and have not expired, by the database's clock, oldest first. */
export async function openApprovals(ledger: PostgresLedger): Promise<ApprovalRequest[]> {
  const rows = await ledger.run(
    `SELECT * FROM agentpay_approvals a WHERE a.decision IS NULL AND a.expires_at > now() ORDER BY a.seq`,
    [],
  );
  return rows.map(requestOfRow);
}

/** The request for this TransactionID of this gateway and agent, as it stands; undefined when there is none. */
export async function approvalRequest(
  ledger: PostgresLedger,
  owner: Owner,
  transactionId: string,
): Promise<ApprovalRequest | undefined> {
  const rows = await ledger.run(
    'SELECT * FROM agentpay_approvals a WHERE a.gateway = $1 AND a.agent_id = $2 AND a.transaction_id = $3',
    [owner.gateway, owner.agentId, transactionId],
  );
  return rows[0] === undefined ? undefined : requestOfRow(rows[0]);
}

/** What `pay --approved` sends: the frozen purchase, its intent recorded with who asked and who approved. */
export interface ApprovedPurchase {
  attempt: string;
  intent: Intent;
  requestedBy: string;
  approvedBy: string;
}

/**
 * Turns an approved request into its intent, in one statement of the database's (it cannot be
 * used twice). `sent` is undefined when it was used already: the caller reads what became of it.
 */
export async function useApproval(
  ledger: PostgresLedger,
  owner: Owner,
  transactionId: string,
): Promise<ApprovedPurchase | 'used'> {
  let rows: Row[];
  try {
    rows = await ledger.run('SELECT * FROM agentpay_use_approval($1, $2, $3, $4, $5)', [
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
  const requestedBy = String(row.requested_by);
  const approvedBy = String(row.decided_by);
  return {
    attempt: String(row.attempt_seq),
    requestedBy,
    approvedBy,
    intent: {
      ...owner,
      transactionId,
      service: String(row.service),
      account: String(row.account),
      amount: String(row.amount),
      currency: String(row.currency),
      invoiceId: textOrNull(row.invoice_id),
      ...(row.voucher === null ? {} : { voucher: String(row.voucher) }),
      overrides: [`requested-by:${requestedBy}`, `approved-by:${approvedBy}`],
    },
  };
}
