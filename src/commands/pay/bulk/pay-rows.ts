import { setImmediate as nextTurn } from 'node:timers/promises';
import { AgentpayError, ExitCode, type ExitCodeValue, mostSevere } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import type { BulkRowState, JobFigures } from '../../../metrics/exposition.js';
import type { Output } from '../../../output.js';
import { addDecimals } from '../../../protocol/money.js';
import * as text from '../../../render/bulk.js';
import { shownText } from '../../../render/sanitize.js';
import { forEachOrdered } from '../../ordered-pool.js';
import type { BulkRows } from './bulk-rows.js';
import type { BulkRow } from './plan.js';
import { startProgress } from './progress.js';
import type { ResultsWriter } from './results-file.js';
import { IntentsAhead, resultRowOf, stopsTheRunCode, workOnRow } from './row-work.js';
import type { listenForInterrupts } from './run-interrupts.js';

type Totals = Map<text.SummaryKey, Map<string, { rows: number; sum: string }>>;

/** The rows of a run by what became of them, as --metrics-file counts them (docs/metrics.md): a row paid again by its state. */
export function bulkRowsOf(totals: Totals, notStarted: number): Record<BulkRowState, number> {
  const figures = { success: 0, failed: 0, pending: 0, unknown: 0, not_sent: 0, skipped: 0 };
  for (const [key, byCurrency] of totals) {
    const rows = [...byCurrency.values()].reduce((sum, { rows }) => sum + rows, 0);
    const state = text.stateOfKey(key);
    figures[key.startsWith('skipped:') ? 'skipped' : state === 'not-sent' ? 'not_sent' : state] += rows;
  }
  return { ...figures, not_started: notStarted, refused: 0 };
}

export async function payRows(
  out: Output,
  rows: BulkRows,
  work: Parameters<typeof workOnRow>[0],
  writer: ResultsWriter,
  concurrency: number,
  interrupts: ReturnType<typeof listenForInterrupts>,
  figures: JobFigures,
): Promise<void> {
  const progress = startProgress(out, rows.length);
  let stopReason: AgentpayError | undefined;
  const codes = new Set<ExitCodeValue>();
  const totals: Totals = new Map();
  let done = 0;
  let open = 0;
  let notSent = 0;
  const source = function* () {
    for (let index = 0; index < rows.length; index++) {
      if (interrupts.soft.aborted || stopReason !== undefined) return;
      yield { row: rows.get(index), index };
    }
  };
  const ahead = new IntentsAhead(work, rows, concurrency);
  const work1 = async ({ row, index }: { row: BulkRow; index: number }) => {
    // Every 1,024 rows: result lines wait for a slow reader, as the plan's do, rather than queue in
    // memory; and the event loop gets a turn. Rows that end without waiting on anything (a resume's
    // skipped rows) would otherwise all end in one turn: Ctrl+C handled only after the last of them.
    if (index % 1024 === 1023) await Promise.all([out.drained(), nextTurn()]);
    const result = await workOnRow(work, row, ahead.start(index));
    if (result.state === 'not-sent' && stopsTheRunCode(result.exitCode) && stopReason === undefined) {
      stopReason = new AgentpayError(result.message, result.exitCode as ExitCodeValue);
      out.warn(t().bulk.stoppedStarting(shownText(result.message)));
    }
    const latest = resultRowOf(row, result);
    rows.setWord(index, latest);
    // A skipped row is written again only when the results file lagged behind the ledger (a kill between the two).
    if (!result.skipped || row.prior?.state !== result.state) {
      try {
        writer.append(latest);
      } catch (error) {
        if (!(error instanceof AgentpayError)) throw error;
        stopReason ??= error;
      }
    }
    progress.rowDone(result.state === 'failed' || result.state === 'not-sent');
    return result;
  };
  const emit = (result: text.RowResult) => {
    done++;
    codes.add(result.exitCode as ExitCodeValue);
    if (result.state === 'pending' || result.state === 'unknown') open++;
    if (result.state === 'not-sent') notSent++;
    const key = text.summaryKeyOf(result);
    const byCurrency = totals.get(key) ?? new Map<string, { rows: number; sum: string }>();
    const total = byCurrency.get(result.currency) ?? { rows: 0, sum: '0' };
    byCurrency.set(result.currency, { rows: total.rows + 1, sum: addDecimals(total.sum, result.amount || '0') });
    totals.set(key, byCurrency);
    progress.around(() => out.data(out.json ? text.resultJson(result) : text.resultLine(result, out.style, t())));
  };
  try {
    await forEachOrdered(source(), concurrency, work1, emit);
  } finally {
    progress.stop();
    await ahead.closeUnstarted();
    await work.outcomes.settled();
  }
  const interruptedBy = interrupts.by();
  const notStarted = rows.length - done;
  figures.bulkRows = bulkRowsOf(totals, notStarted);
  figures.openPayments = { pending: figures.bulkRows.pending, unknown: figures.bulkRows.unknown };
  const summary = text.summaryText(totals, { rows: rows.length, notStarted, interrupted: interruptedBy }, t());
  out.note(t().bulk.results(writer.path));
  const exitCode: ExitCodeValue =
    interruptedBy !== undefined
      ? open > 0
        ? ExitCode.pendingOrUnknown
        : interrupts.exitCode()
      : mostSevere([...codes, ...(stopReason ? [stopReason.exitCode] : [])]);
  if (exitCode === ExitCode.success) return out.note(out.errorStyle.dim(summary));
  const hint = text.summaryHint({ open, notSent, notStarted }, t());
  throw new AgentpayError(summary, exitCode, hint === undefined ? {} : { hint });
}
