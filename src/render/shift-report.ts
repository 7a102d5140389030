import { type Catalogue, en } from '../i18n/en.js';
import type { ShiftSummary, ZReportContent } from '../ledger/z-report.js';
import { type CsvColumn, type CsvNotation, csvHeader, csvRow } from './csv.js';
import { localTimeText } from './receipt.js';
import { shownText } from './sanitize.js';

/** A shift's X or Z report for a person, at receipt width (short lines, one fact each: 48 columns
 * with the times, whose offset makes them 26; 32 with the rest), and its
 * totals as CSV. Names and ids came from the ledger: shown through the one sanitizer. */

const localTime = (iso: string, said: Catalogue) => localTimeText(iso, -new Date(iso).getTimezoneOffset(), said);

export function shiftReportText(
  report: ShiftSummary | (ZReportContent & { hash: string }),
  said: Catalogue = en,
): string {
  const words = said.shifts;
  const z = 'number' in report ? report : undefined;
  const lines = [
    z === undefined ? words.xTitle : words.zTitle(z.number),
    shownText(report.operator),
    localTime(report.openedAt, said),
    `– ${localTime(report.until, said)}`,
    '',
  ];
  if (report.totals.length === 0) lines.push(words.noPayments);
  for (const total of report.totals) {
    const state = said.states[total.state as keyof Catalogue['states']] ?? total.state;
    lines.push(`${total.currency} ${state} ×${total.count}`, `  ${said.amount(total.sum)}`);
  }
  const section = (heading: string, items: readonly string[]) => {
    if (items.length > 0) lines.push('', heading, ...items.map((item) => `  ${shownText(item)}`));
  };
  section(
    words.approvalsHeading,
    report.approvals.map((a) => words.approvedLine(a.transactionId, a.requestedBy, a.approvedBy)),
  );
  const open = z === undefined ? report.open : z.carried;
  section(
    z === undefined ? words.openHeading : words.carriedHeading,
    open.map((o) => words.openItem(o.transactionId, o.state)),
  );
  // A hash is 64 hex digits: two lines of 32, which any receipt printer takes.
  const halves = (hash: string) => [`  ${hash.slice(0, 32)}`, `  ${hash.slice(32)}`];
  if (z !== undefined) lines.push('', words.hash, ...halves(z.hash), words.previous, ...halves(z.previousHash));
  return lines.join('\n');
}

/** The totals a row per currency and state, as CSV lines (headers in English, like every CSV agentpay writes). */
export function shiftTotalsCsv(report: ShiftSummary, options: { bom: boolean } & CsvNotation): string[] {
  type Total = ShiftSummary['totals'][number];
  const columns: CsvColumn<Total>[] = [
    { header: 'Currency', kind: 'id', value: (total) => total.currency },
    { header: 'State', kind: 'id', value: (total) => total.state },
    { header: 'Count', kind: 'id', value: (total) => String(total.count) },
    { header: 'Sum', kind: 'number', value: (total) => total.sum },
  ];
  return [csvHeader(columns, options), ...report.totals.map((total) => csvRow(columns, total, options))];
}
