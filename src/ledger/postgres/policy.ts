import type pg from 'pg';

/**
 * The desk's policy on the team ledger (desk-rules-schema.ts): approval thresholds per currency
 * and whether payments need an open shift. Set by the administrator (operators may only read
 * it); the database's trigger applies it to every intent, whoever writes it.
 */
export interface DeskPolicy {
  /** A payment above this, by currency, needs a supervisor's approval. */
  approvalOver: { currency: string; over: string; setBy: string; setAt: string }[];
  shiftsRequired: boolean;
}

export interface PolicyChange {
  approvalOver: ReadonlyMap<string, string>;
  clearApprovalOver: readonly string[];
  shiftsRequired?: boolean | undefined;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

export async function deskPolicyOf(client: pg.Client): Promise<DeskPolicy> {
  const thresholds = await client.query(
    'SELECT currency, over::text AS over, set_by, set_at FROM agentpay_approval_thresholds ORDER BY currency',
  );
  const policy = await client.query('SELECT shifts_required FROM agentpay_desk_policy');
  return {
    approvalOver: thresholds.rows.map((row) => ({
      currency: String(row.currency),
      over: String(row.over),
      setBy: String(row.set_by),
      setAt: iso(row.set_at),
    })),
    shiftsRequired: policy.rows[0]?.shifts_required === true,
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
