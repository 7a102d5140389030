import { createHash } from 'node:crypto';
import { addDecimals } from '../protocol/money.js';
import { approvalMarksOf } from './approval-marks.js';
import type { LedgerEntry } from './records.js';

/** A shift's report, pure: totals by currency and state, who approved what, what is still open.
 * Z-reports are canonical JSON chained by SHA-256, as docs/desk-safety.md ("Shifts") defines them,
 * so anyone can check the chain without agentpay. */

export const firstPreviousHash = '0'.repeat(64);

interface ShiftTotal {
  currency: string;
  state: string;
  count: number;
  /** The exact sum of the amounts sent, a decimal string. */
  sum: string;
}

export interface ShiftSummary {
  operator: string;
  openedAt: string;
  /** When the report was made (X), or the shift closed (Z). */
  until: string;
  totals: ShiftTotal[];
  approvals: { transactionId: string; requestedBy: string; approvedBy: string }[];
  /** Payments not final, and requests still awaiting a decision: what a close names or carries over. */
  open: { transactionId: string; state: string }[];
}

export interface ZReportContent extends ShiftSummary {
  number: number;
  previousHash: string;
  /** The open ones, carried into the next shift by --carry-over (empty otherwise: a close needs none). */
  carried: { transactionId: string; state: string }[];
}

/** The shift's payments and its open requests, summed exactly; ordered so the same shift gives the same text. */
export function shiftSummary(
  shift: { operator: string; openedAt: string; until: string },
  entries: readonly LedgerEntry[],
  awaiting: readonly string[],
): ShiftSummary {
  const totals = new Map<string, ShiftTotal>();
  const approvals: ShiftSummary['approvals'] = [];
  const open: ShiftSummary['open'] = [];
  for (const { intent, outcome } of entries) {
    const state = outcome?.view.state ?? 'unknown';
    const key = `${intent.currency}\n${state}`;
    const total = totals.get(key) ?? { currency: intent.currency, state, count: 0, sum: '0' };
    totals.set(key, { ...total, count: total.count + 1, sum: addDecimals(total.sum, intent.amount) });
    const marks = approvalMarksOf(intent);
    if (marks !== undefined) approvals.push({ transactionId: intent.transactionId, ...marks });
    if (state === 'pending' || state === 'unknown') open.push({ transactionId: intent.transactionId, state });
  }
  for (const transactionId of awaiting) open.push({ transactionId, state: 'awaiting-approval' });
  const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);
  return {
    ...shift,
    totals: [...totals.values()].sort((a, b) => byText(a.currency, b.currency) || byText(a.state, b.state)),
    approvals,
    open,
  };
}

/** Canonical JSON (above): the one text a report's hash is taken of. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const entries = keys.map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface StoredZReport {
  number: string;
  content: string;
  hash: string;
  previousHash: string;
}

/** The first report, in number order, whose content, hash, number or link to the one before does not hold; none when the chain is whole. */
export function chainBreak(reports: readonly StoredZReport[]): { number: string; why: string } | undefined {
  let previous = firstPreviousHash;
  let expected = 1n;
  for (const report of reports) {
    let content: { number?: unknown; previousHash?: unknown };
    try {
      content = JSON.parse(report.content) as typeof content;
    } catch {
      return { number: report.number, why: 'content' };
    }
    if (BigInt(report.number) !== expected || String(content.number) !== report.number)
      return { number: report.number, why: 'number' };
    if (sha256Hex(report.content) !== report.hash) return { number: report.number, why: 'hash' };
    if (report.previousHash !== previous || content.previousHash !== previous)
      return { number: report.number, why: 'link' };
    previous = report.hash;
    expected++;
  }
  return undefined;
}
