import { errnoCodeOf, noPaymentSent, UsageError } from '../../../errors.js';
import { t } from '../../../i18n/current.js';
import type { Ledger } from '../../../ledger/ledger.js';
import { type HeldLock, LockBusy, lockNow } from '../../../lock-file.js';
import type { JobFigures } from '../../../metrics/exposition.js';
import type { Output } from '../../../output.js';
import { addDecimals } from '../../../protocol/money.js';
import { generateTransactionId } from '../../../protocol/transaction-id.js';
import * as text from '../../../render/bulk.js';
import { passwordReadsStdin } from '../../../settings/password.js';
import type { CommandContext, GatewaySession } from '../../context.js';
import { announceLive } from '../../live-guard.js';
import { measured } from '../../measured-run.js';
import { BulkRows } from './bulk-rows.js';
import { deskProblems, repeatedPurchases } from './desk-problems.js';
import { type BulkOptions, bulkOptions } from './options.js';
import type { OrderStore } from './order-store.js';
import { bulkRowsOf, payRows } from './pay-rows.js';
import { type BulkRow, lookBackFor, readLedger, resolveVouchers } from './plan.js';
import { type ResultRow, ResultsWriter, resultsFileError, resultsPathOf } from './results-file.js';
import { type PriorRows, readResults } from './results-read.js';
import { OutcomeWrites, resultRowOf } from './row-work.js';
import { BadRowsError, readOrders, refuseBadRows } from './rows.js';
import { listenForInterrupts } from './run-interrupts.js';

/**
 * `agentpay pay --from-file`: bulk top-ups (docs/commands.md "pay --from-file"). The whole file
 * is checked before anything is sent; each row gets its TransactionID, kept in the results file,
 * before any Payment leaves; running the same file again resumes it.
 */

/** Refuses a file whose rows differ from what the results file recorded of them (results-read.ts finds them). */
function refuseChanged(input: string, resultsPath: string, changed: text.ChangedRow[]): void {
  if (changed.length === 0) return;
  throw new UsageError(
    text.changedRowsText(
      input,
      resultsPath,
      changed.sort((a, b) => a.line - b.line),
      t(),
    ),
    { hint: t().bulk.changedRowsHint(resultsPath) },
  );
}

function checkModes(options: BulkOptions, context: CommandContext): { dryRun: boolean } {
  const { out, settings } = context;
  const dryRun = options.dryRun || (!options.yes && out.stdin.isTTY === true);
  if (!dryRun && !options.yes) throw new UsageError(t().bulk.scriptNeedsYes, { hint: t().bulk.scriptNeedsYesHint });
  if (options.fromFile === '-' && options.results === undefined && !dryRun)
    throw new UsageError(t().bulk.stdinNeedsResults);
  if (options.fromFile === '-' && !settings.sandbox && passwordReadsStdin(settings)) {
    throw new UsageError(t().bulk.stdinTwice, { hint: t().bulk.stdinTwiceHint });
  }
  return { dryRun };
}

/** The rows, checked against the ledger and the desk's rules, each with its voucher: exit 2 if any is bad. */
async function planRows(
  context: CommandContext,
  session: GatewaySession,
  ledger: Ledger,
  options: BulkOptions,
  orders: OrderStore,
  prior: PriorRows | undefined,
  stopped: () => boolean,
) {
  const owner = { gateway: session.gateway, agentId: session.agentId };
  const now = new Date();
  const codes = context.settings.codes.table;
  const look = lookBackFor(context.settings, orders, now);
  const { held, recent } = await readLedger(ledger, owner, prior, look, orders, codes);
  const rows = new BulkRows(orders, prior, held, codes);
  const where = options.fromFile === '-' ? 'stdin' : options.fromFile;
  const repeats = repeatedPurchases(orders);
  const policy = { overLimit: options.overLimit, allowDuplicate: options.allowDuplicate };
  // Rows whose amount is known now (static, or an amount given) before any AccountCheck; all of them after.
  refuseBadRows(where, deskProblems(context, owner, rows, repeats, recent, policy, now));
  refuseBadRows(where, await resolveVouchers(session.client, rows, options.concurrency, stopped));
  refuseBadRows(where, deskProblems(context, owner, rows, repeats, recent, policy, now));
  return rows;
}

/** The plan on stdout, a row at a time (waiting for a slow reader every 1,024 rows), and its sums on stderr. */
async function showPlan(out: Output, rows: BulkRows): Promise<void> {
  const totals = new Map<string, { rows: number; sum: string }>();
  let toPay = 0;
  for (let index = 0; index < rows.length; index++) {
    const row = rows.get(index);
    // Spelled out, not spread: spreading a row into another object here promoted ~20% of what the
    // loop made to the old generation, per row (V8 made it through a path that is no fast clone).
    const plan: text.PlanRow = {
      line: row.line,
      key: row.key,
      service: row.service,
      account: row.account,
      currency: row.currency,
      voucher: row.voucher,
      invoiceId: row.paidInvoiceId,
      amount: row.paidAmount ?? '',
      done: row.start === 'final' ? (row.entry?.outcome?.view.state ?? row.prior?.state) : undefined,
    };
    out.data(out.json ? text.planJson(plan) : text.planLine(plan, out.style, t()));
    if (index % 1024 === 1023) await out.drained();
    if (row.start === 'final') continue;
    toPay++;
    const total = totals.get(row.currency) ?? { rows: 0, sum: '0' };
    totals.set(row.currency, { rows: total.rows + 1, sum: addDecimals(total.sum, row.paidAmount ?? '0') });
  }
  out.note(text.planSummary(totals, toPay, rows.length - toPay, t()));
}

/** Every row as the results file keeps it now, made a row at a time as the file is written. */
function* latestRows(rows: BulkRows): Generator<ResultRow> {
  for (let index = 0; index < rows.length; index++) yield rows.latest(index, resultRowOf(rows.get(index)));
}

async function payFile(rawOptions: unknown, context: CommandContext, figures: JobFigures): Promise<void> {
  const options = bulkOptions(rawOptions);
  const { out } = context;
  const { dryRun } = checkModes(options, context);
  // A dry run pays nothing: no run of the job a monitor watches, so no metrics file.
  if (dryRun) figures.notAJob = true;
  const live = announceLive(context);
  const resultsPath = options.results ?? (options.fromFile === '-' ? undefined : resultsPathOf(options.fromFile));
  const interrupts = listenForInterrupts(out, context.interrupts);
  // One run of a file at a time: a second (cron overlapping itself, two operators) is refused
  // before it reads anything. A renamed copy has results of its own: its rows meet the first
  // run's in the ledger, where the duplicate check and the intent are one step.
  let runLock: HeldLock | undefined;
  let read: Awaited<ReturnType<typeof readResults>>;
  try {
    runLock = dryRun || resultsPath === undefined ? undefined : lockRun(options.fromFile, resultsPath);
    const { rows: orders, written } = await readOrders(
      options.fromFile,
      options.fromFormat,
      () => out.stdin,
      options.notation,
    );
    read = resultsPath === undefined ? undefined : await readResults(resultsPath, orders);
    if (read !== undefined && resultsPath !== undefined)
      refuseChanged(options.fromFile === '-' ? 'stdin' : options.fromFile, resultsPath, read.changed);
    const prior = read?.prior;
    // The first signal lets the rows in flight settle: only the second cuts their look-ups short.
    const session = await context.openGateway({ connections: options.concurrency, batch: true, stop: interrupts.hard });
    try {
      const ledger = await context.openLedger();
      const rows = await planRows(context, session, ledger, options, orders, prior, () => interrupts.soft.aborted);
      interrupts.check();
      if (dryRun) return await showPlan(out, rows);
      for (let index = 0; index < rows.length; index++) {
        const row = rows.get(index);
        if (row.transactionId !== undefined) continue;
        row.transactionId = generateTransactionId();
        rows.put(index, row);
      }
      const writer = new ResultsWriter(resultsPath!, written);
      writer.rewrite(latestRows(rows));
      const count = (start: BulkRow['start']) => {
        let found = 0;
        for (let index = 0; index < rows.length; index++) if (rows.startOf(index) === start) found++;
        return found;
      };
      if (prior !== undefined) out.note(t().bulk.resume(resultsPath!, count('final'), count('open'), count('new')));
      const desk = { overLimit: options.overLimit, duplicates: options.allowDuplicate ? 'allow' : 'refuse' } as const;
      const work = {
        context,
        session,
        ledger,
        hardStop: interrupts.hard,
        overrides: live === undefined ? [] : ['yes'],
        outcomes: new OutcomeWrites(),
        desk,
      };
      try {
        await payRows(out, rows, work, writer, options.concurrency, interrupts, figures);
      } finally {
        // Left as appended when the rows' words were too many to keep (bulk-rows.ts wordsKeptAtMost).
        if (rows.keepsWords) writer.rewrite(latestRows(rows));
        writer.close();
      }
    } finally {
      await session.close({ abort: interrupts.hard.aborted });
    }
  } finally {
    read?.prior.release();
    runLock?.release();
    interrupts.release();
  }
}

/** `agentpay pay --from-file`, measured for --metrics-file: a file refused for its bad rows counts them. */
export const runBulkPay = measured(
  () => 'pay_from_file',
  async (rawOptions, context, figures) => {
    try {
      await payFile(rawOptions, context, figures);
    } catch (error) {
      if (error instanceof BadRowsError) figures.bulkRows = { ...bulkRowsOf(new Map(), 0), refused: error.rows };
      throw error;
    }
  },
);

/** The lock of a file's run, held on its results file for the run's length; exit 2 naming the holder when another run has it. */
function lockRun(input: string, resultsPath: string): HeldLock {
  let lock: HeldLock | LockBusy;
  try {
    lock = lockNow(`${resultsPath}.lock`);
  } catch (error) {
    // Its directory cannot take the lock (a full disk, a read-only file system): nor the results file.
    if (errnoCodeOf(error) === undefined) throw error;
    throw resultsFileError(resultsPath, error, noPaymentSent());
  }
  if (!(lock instanceof LockBusy)) return lock;
  const { holder } = lock;
  const who =
    holder === undefined ? t().lock.unknownHolder : t().lock.holder(String(holder.pid), holder.host, holder.since);
  throw new UsageError(t().lock.runBusy(input === '-' ? 'stdin' : input, who), {
    hint: t().lock.runBusyHint(resultsPath),
  });
}
