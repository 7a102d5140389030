import { UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';
import { iso } from '../sql/rows.js';
import type { StoredZReport, ZReportContent } from '../z-report.js';
import { canonicalJson, sha256Hex } from '../z-report.js';
import type { PostgresLedger } from './postgres-ledger.js';
import { sqlStateOf } from './refusals.js';

/**
 * Shifts on the team ledger (shifts-schema.ts holds the SQL): the operator role's open shift,
 * opening and closing one, the Z-reports stored. Each refusal of the database worded (exit 2).
 */

export interface Shift {
  seq: string;
  operator: string;
  openedAt: string;
}

/** This role's open shift (session_user's), if it has one. */
export async function openShiftOf(ledger: PostgresLedger): Promise<Shift | undefined> {
  const [row] = await ledger.run(
    'SELECT seq, operator, opened_at FROM agentpay_shifts WHERE operator = session_user AND closed_at IS NULL',
    [],
  );
  return row === undefined
    ? undefined
    : { seq: String(row.seq), operator: String(row.operator), openedAt: iso(row.opened_at) };
}

/** Opens this role's shift; refused (exit 2) while one is open. */
export async function openShift(ledger: PostgresLedger): Promise<Shift> {
  try {
    const [row] = await ledger.run('SELECT * FROM agentpay_open_shift()', []);
    return { seq: String(row!.seq), operator: String(row!.operator), openedAt: iso(row!.opened_at) };
  } catch (error) {
    if (sqlStateOf(error) === 'APSHO')
      throw new UsageError(t().shifts.alreadyOpen, { cause: error, hint: t().shifts.alreadyOpenHint });
    throw error;
  }
}

/** The database's clock now: when an X-report is made, or a shift closes. */
export async function databaseNow(ledger: PostgresLedger): Promise<string> {
  const [row] = await ledger.run('SELECT now() AS now', []);
  return iso(row?.now);
}

/** The number and hash the next Z-report follows. */
export async function lastZReport(ledger: PostgresLedger): Promise<{ number: number; hash: string } | undefined> {
  const [row] = await ledger.run('SELECT number, hash FROM agentpay_z_reports ORDER BY number DESC LIMIT 1', []);
  return row === undefined ? undefined : { number: Number(row.number), hash: String(row.hash) };
}

/**
 * Stores the Z-report and closes the shift, in one call of the database's; the text stored and
 * its hash. 'raced' when the report missed what happened meanwhile (unless this is the last try).
 */
export async function closeShift(
  ledger: PostgresLedger,
  shift: Shift,
  content: ZReportContent,
  lastTry: boolean,
): Promise<{ text: string; hash: string } | 'raced'> {
  const text = canonicalJson(content);
  const hash = sha256Hex(text);
  try {
    await ledger.run('SELECT number FROM agentpay_close_shift($1, $2, $3)', [shift.seq, text, hash]);
  } catch (error) {
    if (sqlStateOf(error) === 'APZCH' && !lastTry) return 'raced';
    if (sqlStateOf(error) === 'APZCH' || sqlStateOf(error) === 'APSHN')
      throw new UsageError(t().shifts.closeRaced, { cause: error, hint: t().shifts.closeRacedHint });
    throw error;
  }
  return { text, hash };
}

/** The shift Z-report `number` closed: whose, and when it was open; undefined when there is no such report. */
export async function shiftOfZReport(
  ledger: PostgresLedger,
  number: number,
): Promise<{ operator: string; openedAt: Date; closedAt: Date } | undefined> {
  const [row] = await ledger.run(
    `SELECT s.operator, s.opened_at, s.closed_at FROM agentpay_z_reports z JOIN agentpay_shifts s ON s.seq = z.shift_seq
     WHERE z.number = $1`,
    [number],
  );
  if (row === undefined) return undefined;
  return {
    operator: String(row.operator),
    openedAt: new Date(iso(row.opened_at)),
    closedAt: new Date(iso(row.closed_at)),
  };
}

/** Every Z-report in number order, as stored. */
export async function zReports(ledger: PostgresLedger): Promise<StoredZReport[]> {
  const rows = await ledger.run(
    'SELECT number, content, hash, previous_hash FROM agentpay_z_reports ORDER BY number',
    [],
  );
  return rows.map((row) => ({
    number: String(row.number),
    content: String(row.content),
    hash: String(row.hash),
    previousHash: String(row.previous_hash),
  }));
}

/** The requests this role made since the shift opened that still await a decision or, approved, their Payment. */
export async function awaitingRequests(ledger: PostgresLedger, shift: Shift): Promise<string[]> {
  const rows = await ledger.run(
    `SELECT a.transaction_id FROM agentpay_approvals a
     WHERE a.requested_by = $1 AND a.requested_at >= $2 AND a.expires_at > now()
       AND (a.decision IS NULL OR (a.decision = 'approved' AND NOT EXISTS (SELECT 1 FROM agentpay_transactions t
         WHERE t.gateway = a.gateway AND t.agent_id = a.agent_id AND t.transaction_id = a.transaction_id)))
     ORDER BY a.seq`,
    [shift.operator, shift.openedAt],
  );
  return rows.map((row) => String(row.transaction_id));
}
