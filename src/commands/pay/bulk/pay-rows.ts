import { setImmediate as nextTurn } from 'node:timers/promises';
import { AgentpayError, ExitCode, type ExitCodeValue, mostSevere } from '../../../errors.js';
import type { BulkRun } from '../../../ledger/bulk-run.js';
import type { BulkRowState, JobFigures } from '../../../metrics/exposition.js';
import type { Output } from '../../../output.js';
import { addDecimals } from '../../../protocol/money.js';
import * as text from '../../../render/bulk.js';
import { shownText } from '../../../render/sanitize.js';
import { t } from '../../../run-scope.js';
import { forEachOrdered } from '../../ordered-pool.js';
import { type BulkRow, rowsOf } from './plan.js';
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

// The plan's rows read ahead of the row being started, a page at a time, for the intents written ahead of them
// (row-work.ts IntentsAhead); rows far behind are let go.
class RowsAhead {
  private rows: BulkRow[] = [];
  private first = 0;
  private readonly source: AsyncGenerator<BulkRow>;
  private ended = false;

  constructor(run: BulkRun) {
    this.source = rowsOf(run);
  }

  /** Reads on until the row numbered `until` - 1 is read, or the file ended. */
  async readTo(until: number): Promise<void> {
    while (!this.ended && this.first + this.rows.length < until) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else this.rows.push(next.value);
    }
    const behind = until - keptBehind - this.first;
    if (behind > keptBehind) {
      this.rows.splice(0, behind);
      this.first += behind;
    }
  }

  at(index: number): BulkRow | undefined {
    return this.rows[index - this.first];
  }
}

/** Rows kept behind the one read last: more than a run's rows in flight and ahead ever reach back. */
const keptBehind = 4096;

// The plan's rows paid, settled or skipped `concurrency` at a time, each line written to the results in file
// order as it ends; then the rows not started (a stop), as the ledger has them.
export async function payRows(
  out: Output,
  run: { rows: BulkRun; count: number },
  work: Parameters<typeof workOnRow>[0],
  writer: ResultsWriter,
  concurrency: number,
  interrupts: ReturnType<typeof listenForInterrupts>,
  figures: JobFigures,
): Promise<void> {
  const progress = startProgress(out, run.count);
  let stopReason: AgentpayError | undefined;
  const codes = new Set<ExitCodeValue>();
  const totals: Totals = new Map();
  let done = 0;
  let open = 0;
  let notSent = 0;
  let lastLine = 0;
  const rows = new RowsAhead(run.rows);
  const ahead = new IntentsAhead(work, rows, concurrency);
  const source = async function* () {
    for (let index = 0; ; index++) {
      if (interrupts.soft.aborted || stopReason !== undefined) return;
      await rows.readTo(index + 2 + 2 * concurrency);
      const row = rows.at(index);
      if (row === undefined) return;
      yield { row, index };
    }
  };
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
    progress.rowDone(result.state === 'failed' || result.state === 'not-sent');
    return { row, result };
  };
  const emit = ({ row, result }: { row: BulkRow; result: text.RowResult }) => {
    done++;
    lastLine = row.line;
    try {
      writer.append(resultRowOf(row, result));
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      stopReason ??= error;
    }
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
  try {
    await writeNotStarted(run.rows, lastLine, writer);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    stopReason ??= error;
  }
  const interruptedBy = interrupts.by();
  const notStarted = run.count - done;
  figures.bulkRows = bulkRowsOf(totals, notStarted);
  figures.openPayments = { pending: figures.bulkRows.pending, unknown: figures.bulkRows.unknown };
  const summary = text.summaryText(totals, { rows: run.count, notStarted, interrupted: interruptedBy }, t());
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

/** The rows after `lastLine`, not started this run, in the results file as the ledger has them. */
async function writeNotStarted(run: BulkRun, lastLine: number, writer: ResultsWriter): Promise<void> {
  for await (const row of rowsOf(run, lastLine)) writer.append(resultRowOf(row));
}
