import { UsageError } from '../../errors.js';
import { untilInterrupted } from '../../interrupts.js';
import { approvalMarksOf } from '../../ledger/approval-marks.js';
import type { LedgerEntry, LedgerHistory } from '../../ledger/ledger.js';
import type { JobFigures } from '../../metrics/exposition.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord } from '../../options/values.js';
import { teamLedgerOf } from '../../purchase/team-ledger.js';
import type { ReportLines } from '../../render/report.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { measured } from '../measured-run.js';
import { type DataFormatChoice, dataFormatOption, writeCsvLine } from '../output-format.js';
import { reportOptions } from './options.js';
import { type ReportRange, reportRange } from './range.js';
import { type ReportPayment, ReportTally } from './tally.js';

function parseReportOptions(raw: unknown, out: CommandContext['out']) {
  const { by, date, since, until, shift } = parseOptions(raw, reportOptions);
  if (shift !== undefined && (date ?? since ?? until) !== undefined) throw new UsageError(t().shifts.shiftAlone);
  return {
    dimensions: by,
    range: reportRange({ date, since, until }),
    shift,
    output: dataFormatOption(optionRecord(raw), out),
  };
}

/** `--shift N`: the range the shift Z-report N closed was open, and its role's payments only. */
async function shiftRange(context: CommandContext, number: number): Promise<{ range: ReportRange; operator: string }> {
  const shift = await (await teamLedgerOf(context, 'shifts')).team.shifts.ofZReport(number);
  if (shift === undefined) throw new UsageError(t().shifts.noSuchReport(number), { hint: t().shifts.noSuchReportHint });
  return { range: { from: shift.openedAt, until: shift.closedAt }, operator: shift.operator };
}

// A ledger entry as the report counts it: the latest state (unknown without an answer) and the intent's
// service, account, amount and currency.
function paymentOf({ intent, outcome, recordedBy }: LedgerEntry): ReportPayment {
  return {
    transactionId: intent.transactionId,
    service: intent.service,
    operator: recordedBy?.operator ?? intent.operator ?? null,
    approvedBy: approvalMarksOf(intent)?.approvedBy ?? null,
    currency: intent.currency,
    amount: intent.amount,
    state: outcome?.view.state ?? 'unknown',
  };
}

// The range's entries counted as they stream: asked from the range's start (an attempt's time), the end
// filtered here.
async function countEntries(
  entries: LedgerHistory,
  range: ReportRange,
  tally: ReportTally,
  open: Record<'pending' | 'unknown', number>,
): Promise<void> {
  const until = range.until.getTime();
  for await (const entry of entries) {
    if (Date.parse(entry.intent.at) >= until) continue;
    const payment = paymentOf(entry);
    tally.add(payment);
    if (payment.state === 'pending' || payment.state === 'unknown') open[payment.state]++;
  }
}

/** The range as a receipt writes a day and a time, in the language (`01.12.2026` in Russian). */
async function shownRange(range: ReportRange): Promise<string> {
  const said = t();
  if (range.day !== undefined) {
    const [year = '', month = '', day = ''] = range.day.split('-');
    return said.report.day(said.localDay({ year, month, day }));
  }
  const { machineLocalTimeText } = await import('../../render/receipt.js');
  const from = range.from === null ? null : machineLocalTimeText(range.from.toISOString(), said);
  return said.report.span(from, machineLocalTimeText(range.until.toISOString(), said));
}

async function show(
  report: ReportLines,
  range: ReportRange,
  out: CommandContext['out'],
  { format, bom, notation }: DataFormatChoice,
): Promise<void> {
  if (format === 'table') {
    const { reportTable } = await import('../../render/report-table.js');
    out.data(reportTable(report, out.style, t(), out.tableWidth));
    return;
  }
  const { reportCsvColumns, reportJsonLine, reportLines } = await import('../../render/report.js');
  if (format === 'json') {
    for (const line of reportLines(report, { labelledTotals: false })) out.data(reportJsonLine(line, range));
    return;
  }
  const { csvHeader, csvRow } = await import('../../render/csv.js');
  const columns = reportCsvColumns(report.dimensions);
  writeCsvLine(out, csvHeader(columns, { bom, ...notation }));
  for (const line of reportLines(report, { labelledTotals: true })) writeCsvLine(out, csvRow(columns, line, notation));
}

/** `agentpay report`: counts and exact sums of the ledger's payments in a range, grouped, a total per currency. Reads only; sends nothing. */
async function reportLedger(rawOptions: unknown, context: CommandContext, figures: JobFigures): Promise<void> {
  const { out } = context;
  const options = parseReportOptions(rawOptions, out);
  const { dimensions, output } = options;
  const ofShift = options.shift === undefined ? undefined : await shiftRange(context, options.shift);
  const range = ofShift?.range ?? options.range;
  const ledger = await context.openLedger();
  const counted = new ReportTally(dimensions);
  const open = { pending: 0, unknown: 0 };
  const read = await ledger.entries({ since: range.from ?? undefined, operator: ofShift?.operator });
  // Ctrl+C or SIGTERM stops the count between two transactions: no report from part of the range.
  await countEntries(
    { ...read, [Symbol.asyncIterator]: () => untilInterrupted(read, context.interrupts) },
    range,
    counted,
    open,
  );
  // The payments of the range still open, as the ledger last heard of them (a monitor's gauge).
  figures.openPayments = open;
  const report = { groups: counted.results(), totals: counted.totals(), dimensions };
  if (report.groups.length === 0) {
    out.note(t().report.none(ledger.location.shown, await shownRange(range)));
    if (output.format !== 'csv') return;
  } else if (output.format === 'table') out.note(out.errorStyle.dim(t().report.paymentsFor(await shownRange(range))));
  await show(report, range, out, output);
}

export const runReport = measured(() => 'report', reportLedger);
