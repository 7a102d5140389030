import type pg from 'pg';
import { iso, type Row } from '../sql/rows.js';
import type { LedgerPolicy, PolicyChange } from '../team-ledger.js';

/** The desk's policy on the team ledger (desk-rules-schema.ts): approval thresholds per currency
 * and whether payments need an open shift. Set by the administrator (operators may only read
 * it); the database's trigger applies it to every intent, whoever writes it. */

/** The policy as it stands, read with `query` (a ledger's turn, or the administrator's client). */
export async function ledgerPolicyOf(query: (text: string) => Promise<Row[]>): Promise<LedgerPolicy> {
  const thresholds = await query(
    'SELECT currency, over::text AS over, set_by, set_at FROM agentpay_approval_thresholds ORDER BY currency',
  );
  const policy = await query('SELECT shifts_required FROM agentpay_desk_policy');
  return {
    approvalOver: thresholds.map((row) => ({
      currency: String(row.currency),
      over: String(row.over),
      setBy: String(row.set_by),
      setAt: iso(row.set_at),
    })),
    shiftsRequired: policy[0]?.shifts_required === true,
  };
}

/** The change in one transaction: all of it holds, or none. Throws the server's error (42501: not the administrator). */
export async function changeDeskPolicy(client: pg.Client, change: PolicyChange): Promise<void> {
  await client.query('BEGIN');
  try {
    for (const [currency, over] of change.approvalOver)
      await client.query(
        `INSERT INTO agentpay_approval_thresholds (currency, over) VALUES ($1, $2::numeric)
         ON CONFLICT (currency) DO UPDATE SET over = EXCLUDED.over, set_by = session_user, set_at = now()`,
        [currency, over],
      );
    if (change.clearApprovalOver.length > 0)
      await client.query('DELETE FROM agentpay_approval_thresholds WHERE currency = ANY($1::text[])', [
        change.clearApprovalOver,
      ]);
    if (change.shiftsRequired !== undefined)
      await client.query(
        `INSERT INTO agentpay_desk_policy (shifts_required) VALUES ($1)
         ON CONFLICT (only_row) DO UPDATE SET shifts_required = EXCLUDED.shifts_required, set_by = session_user, set_at = now()`,
        [change.shiftsRequired],
      );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
