import { type Catalogue, en } from '../i18n/en.js';
import { shownText } from './sanitize.js';
import type { Style } from './style.js';

// Every human string of `pay --from-file`, pure: bad rows, the plan, a row's line, progress and the summary, and
// the --json lines (never translated). Cells and gateway texts reach a person through shownText.

/** A row that cannot be paid as written: its line, the column when one is at fault, and why. */
export interface BadRow {
  line: number;
  column: string | undefined;
  message: string;
}

/** How many bad rows a message names before "and N more". */
const shownBadRows = 20;

// `orders.csv has 2 bad rows, nothing was sent:` then each bad row indented below, in file order: the first 20,
// then how many more.
export function badRowsText(where: string, problems: readonly BadRow[], said: Catalogue = en): string {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const named = sorted
    .slice(0, shownBadRows)
    .map(
      ({ line, column, message }) =>
        `${said.bulk.line(line)}${column === undefined ? '' : said.bulk.column(shownText(column))}: ${shownText(message)}`,
    );
  if (sorted.length > shownBadRows) named.push(said.bulk.andMore(sorted.length - shownBadRows));
  return said.bulk.badRows(where, sorted.length, named.map((line) => `\n  ${line}`).join(''));
}

/** A row whose input changed since the results file recorded it: which cells, before and after. */
export interface ChangedRow {
  line: number;
  changes: { column: string; was: string; now: string }[];
}

export function changedRowsText(
  input: string,
  results: string,
  rows: readonly ChangedRow[],
  said: Catalogue = en,
): string {
  const named = rows
    .slice(0, shownBadRows)
    .map(({ line, changes }) =>
      changes.length === 0
        ? said.bulk.lineGone(line)
        : `${said.bulk.line(line)} ${changes.map(({ column, was, now }) => shownText(`${column} ${JSON.stringify(was)} → ${JSON.stringify(now)}`)).join(', ')}`,
    );
  const more = rows.length > shownBadRows ? `; ${said.bulk.andMore(rows.length - shownBadRows)}` : '';
  return said.bulk.changedRows(input, results, `${named.join('; ')}${more}`);
}

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

export function planLine(row: PlanRow, style: Style, said: Catalogue = en): string {
  const { bulk } = said;
  const what =
    row.voucher === undefined
      ? bulk.planAmount
      : bulk.planVoucher(shownText(row.voucher), shownText(row.invoiceId ?? ''));
  const done = row.done === undefined ? '' : `  ${style.dim(bulk.already(shownText(stateWord(row.done, said))))}`;
  const money = shownText(`${said.amount(row.amount)} ${row.currency}`);
  return `${bulk.line(row.line)}  ${shownText(row.key ?? '-')}  ${bulk.service(shownText(row.service))}  ${bulk.account(shownText(row.account))}  ${what}  ${money}${done}`;
}

/** A state as a person reads it; a word the catalogue does not know, as it is. */
const stateWord = (state: string, said: Catalogue) => said.bulk.states[state as RowState] ?? state;

export function planJson(row: PlanRow): string {
  // Fields spelled out, `done` added after: a spread here costs a bulk run's dry run memory (run.ts showPlan).
  const shown: Record<string, unknown> = {
    dryRun: true,
    line: row.line,
    key: row.key ?? null,
    service: row.service,
    account: row.account,
    currency: row.currency,
    invoiceId: row.invoiceId ?? null,
    voucher: row.voucher ?? null,
    amount: row.amount,
  };
  if (row.done !== undefined) shown.done = row.done;
  return JSON.stringify(shown);
}

/** Totals per currency, as the plan and the summary show them: `12 rows 29964.00 KZT`. */
export type CurrencyTotals = ReadonlyMap<string, { rows: number; sum: string }>;

const totalsText = (totals: CurrencyTotals, said: Catalogue) =>
  [...totals].map(([currency, { rows, sum }]) => `${said.bulk.rows(rows)} ${said.amount(sum)} ${currency}`).join(', ');

export function planSummary(totals: CurrencyTotals, toPay: number, done: number, said: Catalogue = en): string {
  return said.bulk.planSummary(toPay, totalsText(totals, said) || said.bulk.nothing, done);
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
  /** Closed earlier as failed without the gateway's word ("never made", "not sent"), and paid again this run. */
  paidAgain: boolean;
  exitCode: number;
  /** Not sent because a desk rule refused it where its intent was written: which rule. */
  rule?: string | undefined;
}

const stateColour = (state: RowState, style: Style) =>
  state === 'success' ? style.success : state === 'failed' || state === 'not-sent' ? style.failure : style.pending;

export function resultLine(result: RowResult, style: Style, said: Catalogue = en): string {
  const mark = stateColour(result.state, style)(stateWord(result.state, said).padEnd(style.enabled ? 0 : 8));
  const skipped = result.skipped ? `  ${style.dim(said.bulk.skipped)}` : '';
  return [
    said.bulk.line(result.line),
    shownText(result.key ?? '-'),
    mark,
    shownText(result.transactionId),
    shownText(`${said.amount(result.amount)} ${result.currency}`),
    said.bulk.account(shownText(result.account)),
    result.status === null ? '-' : shownText(result.status),
    shownText(result.message || '-'),
  ]
    .join('  ')
    .concat(skipped);
}

/** Every field but the exit code, in the order of RowResult; spelled out, not spread (a line per row of a bulk run). */
export function resultJson(result: RowResult): string {
  return JSON.stringify({
    line: result.line,
    key: result.key ?? null,
    transactionId: result.transactionId,
    state: result.state,
    service: result.service,
    account: result.account,
    currency: result.currency,
    amount: result.amount,
    invoiceId: result.invoiceId ?? null,
    voucher: result.voucher ?? null,
    status: result.status,
    requestId: result.requestId,
    message: result.message,
    ...(result.rule === undefined ? {} : { rule: result.rule }),
    skipped: result.skipped,
  });
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
export function progressBar(progress: Progress, width: number, said: Catalogue = en): string {
  const { done, total, failed, elapsedMs } = progress;
  const left = done === 0 ? '~?' : `~${clock((elapsedMs / done) * (total - done))}`;
  const tail = said.bulk.progress(done, total, failed, clock(elapsedMs), left);
  const barWidth = Math.max(5, Math.min(30, width - tail.length - 3));
  const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${tail}`.slice(0, Math.max(10, width - 1));
}

// What the summary counts a row as: its state this run; skipped rows by the state they had, rows paid again
// apart, so no failure hides among skipped rows and no second Payment among successes.
export type SummaryKey = RowState | `skipped:${RowState}` | `again:${RowState}`;

export function summaryKeyOf(result: RowResult): SummaryKey {
  if (result.skipped) return `skipped:${result.state}`;
  return result.paidAgain && result.state !== 'not-sent' ? `again:${result.state}` : result.state;
}

/** The row state a summary key counts (success for a row skipped as success). */
export const stateOfKey = (key: SummaryKey): RowState => key.slice(key.indexOf(':') + 1) as RowState;

function keyWord(key: SummaryKey, said: Catalogue): string {
  const state = stateWord(stateOfKey(key), said);
  if (key.startsWith('skipped:')) return said.bulk.skippedAs(state);
  return key.startsWith('again:') ? said.bulk.paidAgainAs(state) : state;
}

/** Per summary key: how many rows, and their sums per currency. */
export type StateTotals = ReadonlyMap<SummaryKey, CurrencyTotals>;

export function summaryText(
  totals: StateTotals,
  counts: { rows: number; notStarted: number; interrupted: string | undefined },
  said: Catalogue = en,
): string {
  const parts = [...totals].map(([key, byCurrency]) => {
    const rows = [...byCurrency.values()].reduce((sum, { rows }) => sum + rows, 0);
    const sums = [...byCurrency].map(([currency, { sum }]) => `${said.amount(sum)} ${currency}`).join(' + ');
    return `${rows} ${keyWord(key, said)} (${sums})`;
  });
  return said.bulk.summary(counts.rows, counts.interrupted, parts.join(', '), counts.notStarted);
}

/** The next step after a batch that did not end well, or undefined. */
export function summaryHint(
  counts: { open: number; notSent: number; notStarted: number },
  said: Catalogue = en,
): string | undefined {
  if (counts.open + counts.notSent + counts.notStarted === 0) return undefined;
  return said.bulk.summaryHint;
}

// The notes and refusals of a run are the catalogue's own (en.ts `bulk`): said.bulk.resume,
// results, interrupt, scriptNeedsYes, stdinNeedsResults, stoppedStarting.
