import type { Style } from './style.js';

/**
 * Every human-facing string of `pay --from-file` (bulk top-ups), pure: the bad rows, the plan,
 * a row's result line, the progress bar and the summary. --json lines are built here too, and
 * are never translated.
 */

/** A row that cannot be paid as written: its line, the column when one is at fault, and why. */
export interface BadRow {
  line: number;
  column: string | undefined;
  message: string;
}

/** How many bad rows a message names before "and N more". */
const shownBadRows = 20;

/** `orders.csv has 2 bad rows, nothing was sent: line 4, amount: "1,5" is not ...; line 7: ...` (one line, in file order). */
export function badRowsText(where: string, problems: readonly BadRow[]): string {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const named = sorted.slice(0, shownBadRows).map(({ line, column, message }) => `line ${line}${column === undefined ? '' : `, ${column}`}: ${message}`);
  const more = sorted.length > shownBadRows ? `; and ${sorted.length - shownBadRows} more` : '';
  const count = sorted.length === 1 ? '1 bad row' : `${sorted.length} bad rows`;
  return `${where} has ${count}, nothing was sent: ${named.join('; ')}${more}`;
}

/** A row whose input changed since the results file recorded it: which cells, before and after. */
export interface ChangedRow {
  line: number;
  changes: { column: string; was: string; now: string }[];
}

export function changedRowsText(input: string, results: string, rows: readonly ChangedRow[]): string {
  const named = rows
    .slice(0, shownBadRows)
    .map(({ line, changes }) =>
      changes.length === 0
        ? `line ${line} is gone`
        : `line ${line} ${changes.map(({ column, was, now }) => `${column} ${JSON.stringify(was)} → ${JSON.stringify(now)}`).join(', ')}`,
    );
  const more = rows.length > shownBadRows ? `; and ${rows.length - shownBadRows} more` : '';
  return `${input} changed since ${results} was written (${named.join('; ')}${more}); refusing to guess which payments are which, nothing was sent`;
}

export const changedRowsHint = (results: string) =>
  `run the original file again to finish it, or give the changed one a new --results file (the rows in ${results} may have been paid)`;

/** What a row is to pay, once its voucher is known. */
export interface PlanRow {
  line: number;
  key: string | undefined;
  service: string;
  account: string;
  currency: string;
  invoiceId: string | undefined;
  voucher: string | undefined;
  amount: string;
  /** Already final in an earlier run of the file: nothing to do. */
  done: string | undefined;
}

export function planLine(row: PlanRow, style: Style): string {
  const what = row.voucher === undefined ? 'amount' : `${row.voucher} (invoice ${row.invoiceId})`;
  const done = row.done === undefined ? '' : `  ${style.dim(`already ${row.done}`)}`;
  return `line ${row.line}  ${row.key ?? '-'}  service ${row.service}  account ${row.account}  ${what}  ${row.amount} ${row.currency}${done}`;
}

export function planJson(row: PlanRow): string {
  return JSON.stringify({
    dryRun: true,
    line: row.line,
    key: row.key ?? null,
    service: row.service,
    account: row.account,
    currency: row.currency,
    invoiceId: row.invoiceId ?? null,
    voucher: row.voucher ?? null,
    amount: row.amount,
    ...(row.done === undefined ? {} : { done: row.done }),
  });
}

/** Totals per currency, as the plan and the summary show them: `12 rows 29964.00 KZT`. */
export type CurrencyTotals = ReadonlyMap<string, { rows: number; sum: string }>;

const totalsText = (totals: CurrencyTotals) => [...totals].map(([currency, { rows, sum }]) => `${rows} row${rows === 1 ? '' : 's'} ${sum} ${currency}`).join(', ');

export function planSummary(totals: CurrencyTotals, toPay: number, done: number): string {
  const already = done === 0 ? '' : `; ${done} already final, skipped`;
  return `dry run: ${toPay} payment${toPay === 1 ? '' : 's'} would be sent (${totalsText(totals) || 'nothing'})${already}; nothing was paid. Add --yes to pay.`;
}

/** A row's end, as the batch reports it: the gateway's state, or not sent (the row stays to pay on a later run). */
export type RowState = 'success' | 'failed' | 'pending' | 'unknown' | 'not-sent';

export interface RowResult {
  line: number;
  key: string | undefined;
  transactionId: string;
  state: RowState;
  service: string;
  account: string;
  currency: string;
  amount: string;
  invoiceId: string | undefined;
  voucher: string | undefined;
  status: string | null;
  requestId: string | null;
  message: string;
  /** Final in an earlier run of the file: skipped, reported as it was. */
  skipped: boolean;
  exitCode: number;
}

const stateColour = (state: RowState, style: Style) => (state === 'success' ? style.success : state === 'failed' || state === 'not-sent' ? style.failure : style.pending);

export function resultLine(result: RowResult, style: Style): string {
  const mark = stateColour(result.state, style)(result.state.padEnd(style.enabled ? 0 : 8));
  const skipped = result.skipped ? `  ${style.dim('(already final, skipped)')}` : '';
  return [
    `line ${result.line}`,
    result.key ?? '-',
    mark,
    result.transactionId,
    `${result.amount} ${result.currency}`,
    `account ${result.account}`,
    result.status === null ? '-' : result.status,
    result.message || '-',
  ]
    .join('  ')
    .concat(skipped);
}

export function resultJson(result: RowResult): string {
  const { exitCode: _exitCode, ...fields } = result;
  return JSON.stringify({ ...fields, key: fields.key ?? null, invoiceId: fields.invoiceId ?? null, voucher: fields.voucher ?? null });
}

export interface Progress {
  done: number;
  total: number;
  failed: number;
  elapsedMs: number;
}

const clock = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** `[#########-----------] 45/100  2 failed  0:12 elapsed  ~0:15 left`, to fit `width` columns. */
export function progressBar(progress: Progress, width: number): string {
  const { done, total, failed, elapsedMs } = progress;
  const left = done === 0 ? '~?' : `~${clock((elapsedMs / done) * (total - done))}`;
  const tail = ` ${done}/${total}  ${failed} failed  ${clock(elapsedMs)} elapsed  ${left} left`;
  const barWidth = Math.max(5, Math.min(30, width - tail.length - 3));
  const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${tail}`.slice(0, Math.max(10, width - 1));
}

/** Per state: how many rows, and their sums per currency. */
export type StateTotals = ReadonlyMap<RowState | 'skipped', CurrencyTotals>;

export function summaryText(totals: StateTotals, counts: { rows: number; notStarted: number; interrupted: string | undefined }): string {
  const parts = [...totals].map(([state, byCurrency]) => {
    const rows = [...byCurrency.values()].reduce((sum, { rows }) => sum + rows, 0);
    const sums = [...byCurrency].map(([currency, { sum }]) => `${sum} ${currency}`).join(' + ');
    return `${rows} ${state} (${sums})`;
  });
  const notStarted = counts.notStarted === 0 ? '' : `; ${counts.notStarted} not started`;
  const stopped = counts.interrupted === undefined ? '' : ` (stopped by ${counts.interrupted})`;
  return `${counts.rows} row${counts.rows === 1 ? '' : 's'}${stopped}: ${parts.join(', ') || 'none done'}${notStarted}`;
}

/** The next step after a batch that did not end well, or undefined. */
export function summaryHint(counts: { open: number; notSent: number; notStarted: number }): string | undefined {
  if (counts.open + counts.notSent + counts.notStarted === 0) return undefined;
  return 'run the same command again to finish the file: final rows are skipped, open ones settled by Status, the rest paid with their same TransactionIDs';
}

export const resumeNote = (results: string, final: number, open: number, toPay: number) =>
  `resuming from ${results}: ${final} row${final === 1 ? '' : 's'} already final (skipped), ${open} open (settled by Status), ${toPay} to pay`;

export const resultsWrittenNote = (results: string) => `results: ${results}`;

export const interruptNote = (by: string) => `${by}: no new rows start; the rows in flight settle (${by} again stops settling them, leaving them unknown)`;

export const scriptNeedsYes = 'pay --from-file from a script pays only with --yes (stdin is not a terminal); nothing was sent';
export const scriptNeedsYesHint = 'add --dry-run to see the plan, or --yes to pay it';
export const stdinNeedsResults = '--from-file - needs --results <path>: where the TransactionIDs of the rows are kept for a later run';

export const stoppedStarting = (reason: string) => `${reason}: no new rows start; run the same command again once it is fixed`;
