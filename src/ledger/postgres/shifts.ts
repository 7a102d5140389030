import { UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';
import { iso, type Query, type Row, text } from '../sql/rows.js';
import type { Shift, Shifts } from '../team-ledger.js';
import { canonicalJson, sha256Hex } from '../z-report.js';
import { sqlStateOf } from './refusals.js';

/** Shifts on the team ledger (shifts-schema.ts holds the SQL); each refusal of the database worded (exit 2). */

const shiftOfRow = (row: Row): Shift => ({
  seq: text(row.seq),
  operator: text(row.operator),
  openedAt: iso(row.opened_at),
});

const awaitingQuery = `SELECT a.transaction_id FROM agentpay_approvals a
  WHERE a.requested_by = $1 AND a.requested_at >= $2 AND a.expires_at > now()
    AND (a.decision IS NULL OR (a.decision = 'approved' AND NOT EXISTS (SELECT 1 FROM agentpay_transactions t
      WHERE t.gateway = a.gateway AND t.agent_id = a.agent_id AND t.transaction_id = a.transaction_id)))
  ORDER BY a.seq`;

const zReportShiftQuery = `SELECT s.operator, s.opened_at, s.closed_at
  FROM agentpay_z_reports z JOIN agentpay_shifts s ON s.seq = z.shift_seq WHERE z.number = $1`;

/** The shifts of the team ledger whose statements `run` sends; the role is the connection's session_user. */
export function shiftsOf(run: Query): Shifts {
  return {
    current: async () => {
      const where = 'operator = session_user AND closed_at IS NULL';
      const [row] = await run(`SELECT seq, operator, opened_at FROM agentpay_shifts WHERE ${where}`, []);
      return row === undefined ? undefined : shiftOfRow(row);
    },
    open: async () => {
      try {
        return shiftOfRow((await run('SELECT * FROM agentpay_open_shift()', []))[0]!);
      } catch (error) {
        if (sqlStateOf(error) === 'APSHO')
          throw new UsageError(t().shifts.alreadyOpen, { cause: error, hint: t().shifts.alreadyOpenHint });
        throw error;
      }
    },
    now: async () => iso((await run('SELECT now() AS now', []))[0]?.now),
    lastZReport: async () => {
      const [row] = await run('SELECT number, hash FROM agentpay_z_reports ORDER BY number DESC LIMIT 1', []);
      return row === undefined ? undefined : { number: Number(row.number), hash: text(row.hash) };
    },
    close: async (shift, content, lastTry) => {
      const stored = canonicalJson(content);
      const hash = sha256Hex(stored);
      try {
        await run('SELECT number FROM agentpay_close_shift($1, $2, $3)', [shift.seq, stored, hash]);
      } catch (error) {
        const code = sqlStateOf(error);
        if (code === 'APZCH' && !lastTry) return 'raced';
        if (code === 'APZCH' || code === 'APSHN')
          throw new UsageError(t().shifts.closeRaced, { cause: error, hint: t().shifts.closeRacedHint });
        throw error;
      }
      return { text: stored, hash };
    },
    ofZReport: async (number) => {
      const [row] = await run(zReportShiftQuery, [number]);
      if (row === undefined) return undefined;
      const [openedAt, closedAt] = [new Date(iso(row.opened_at)), new Date(iso(row.closed_at))];
      return { operator: text(row.operator), openedAt, closedAt };
    },
    zReports: async () => {
      const rows = await run('SELECT number, content, hash, previous_hash FROM agentpay_z_reports ORDER BY number', []);
      return rows.map((row) => ({
        number: text(row.number),
        content: text(row.content),
        hash: text(row.hash),
        previousHash: text(row.previous_hash),
      }));
    },
    awaitingRequests: async (shift) =>
      (await run(awaitingQuery, [shift.operator, shift.openedAt])).map((row) => text(row.transaction_id)),
  };
}
