import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { errnoCodeOf, noPaymentSent, UsageError } from '../../../errors.js';
import type { BulkRun, ChangedBulkRow } from '../../../ledger/bulk-run.js';
import type { Ledger } from '../../../ledger/ledger.js';
import { type HeldLock, LockBusy, lockNow } from '../../../lock-file.js';
import type { JobFigures } from '../../../metrics/exposition.js';
import type { Output } from '../../../output.js';
import { addDecimals } from '../../../protocol/money.js';
import { generateTransactionId } from '../../../protocol/transaction-id.js';
import type { GatewaySession } from '../../../purchase/session.js';
import * as text from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import { passwordReadsStdin } from '../../../settings/password.js';
import type { CommandContext } from '../../context.js';
import { announceLive } from '../../live-guard.js';
import { measured } from '../../measured-run.js';
import { BadRowsError, refuseBadRows } from './bad-rows.js';
import { DeskRowsRefusedError, deskProblems, deskWeighs, refuseDeskRows } from './desk-problems.js';
import { type BulkOptions, bulkOptions } from './options.js';
import { bulkRowsOf, payRows } from './pay-rows.js';
import { lookBackFor, recentToAccounts, resolveVouchers, rowsOf, type Starts, settleStarts } from './plan.js';
import { orderCells, ResultsWriter, resultsFileError, resultsPathOf } from './results-file.js';
import { OutcomeWrites } from './row-work.js';
import { readOrders } from './rows.js';
import { listenForInterrupts } from './run-interrupts.js';

// `agentpay pay --from-file` (docs/commands.md): the file checked whole before anything is sent, each row's
// TransactionID in the ledger before any Payment leaves; running the same file again resumes it.

// The run a file's rows are kept under: its results file's absolute path on this host. A renamed copy is a run
// of its own, whose rows meet the first's in the ledger's duplicate check.
export const runKeyOf = (resultsPath: string) => `${hostname()}:${resolve(resultsPath)}`;

/** Refuses a file whose rows differ from what an earlier run kept of them. */
function refuseChanged(input: string, resultsPath: string, changed: readonly ChangedBulkRow[]): void {
  if (changed.length === 0) return;
  const rows = changed.map(({ was, now }) => {
    if (now === undefined) return { line: was.line, changes: [] };
    const [before, after] = [orderCells(was), orderCells(now)];
    const changes = Object.keys(after)
      .filter((column) => after[column] !== before[column])
      .map((column) => ({ column, was: before[column]!, now: after[column]! }));
    return { line: was.line, changes };
  });
  throw new UsageError(text.changedRowsText(input, resultsPath, rows, t()), {
    hint: t().bulk.changedRowsHint(resultsPath),
  });
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

/** The rows, checked against the ledger and the desk's rules, each with its voucher: exit 2 if any is bad, 7 if refused by a rule. */
async function planRows(
  context: CommandContext,
  session: GatewaySession,
  ledger: Ledger,
  options: BulkOptions,
  run: BulkRun,
  stopped: () => boolean,
): Promise<Starts> {
  const owner = { gateway: session.gateway, agentId: session.agentId };
  const now = new Date();
  const starts = await settleStarts(run, context.settings.codes.table);
  const where = options.fromFile === '-' ? 'stdin' : options.fromFile;
  if (starts.misplaced.length > 0)
    throw new UsageError(
      t().bulk.otherPurchaseRows(
        where,
        starts.misplaced.map(({ line, entry }) => ({ line, ...entry!.intent })),
      ),
      { hint: t().bulk.otherPurchaseRowsHint },
    );
  const recent = await recentToAccounts(ledger, owner, lookBackFor(context.settings, starts.currencies, now), run);
  const repeats = await run.purchasesTwice();
  const policy = { overLimit: options.overLimit, allowDuplicate: options.allowDuplicate };
  const weighs = deskWeighs(context, starts.currencies, repeats, recent);
  const desk = async () => (weighs ? await deskProblems(context, owner, run, repeats, recent, policy, now) : []);
  // Rows whose amount is known now (static, or an amount given) before any AccountCheck; all of them after.
  refuseDeskRows(where, await desk());
  refuseBadRows(where, await resolveVouchers(session.client, run, options.concurrency, stopped));
  refuseDeskRows(where, await desk());
  return starts;
}

/** The plan on stdout, a row at a time (waiting for a slow reader every 1,024 rows), and its sums on stderr. */
async function showPlan(out: Output, run: BulkRun): Promise<void> {
  const totals = new Map<string, { rows: number; sum: string }>();
  let [toPay, rows] = [0, 0];
  for await (const row of rowsOf(run)) {
    const plan: text.PlanRow = {
      line: row.line,
      key: row.key,
      service: row.service,
      account: row.account,
      currency: row.currency,
      voucher: row.voucher,
      invoiceId: row.paidInvoiceId,
      amount: row.paidAmount ?? '',
      done: row.start === 'final' ? row.entry?.outcome?.view.state : undefined,
    };
    out.data(out.json ? text.planJson(plan) : text.planLine(plan, out.style, t()));
    if (++rows % 1024 === 0) await out.drained();
    if (row.start === 'final') continue;
    toPay++;
    const total = totals.get(row.currency) ?? { rows: 0, sum: '0' };
    totals.set(row.currency, { rows: total.rows + 1, sum: addDecimals(total.sum, row.paidAmount ?? '0') });
  }
  out.note(text.planSummary(totals, toPay, rows - toPay, t()));
}

/** Each row's TransactionID, and the rows no earlier run had kept as this run's: before any Payment leaves. */
async function keepRows(run: BulkRun, runKey: string): Promise<void> {
  let batch: { line: number; transactionId: string }[] = [];
  for await (const row of rowsOf(run, 0, { entries: false })) {
    if (row.earlier) continue;
    batch.push({ line: row.line, transactionId: generateTransactionId() });
    if (batch.length < 500) continue;
    await run.keep(runKey, batch);
    batch = [];
  }
  if (batch.length > 0) await run.keep(runKey, batch);
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
  // One run of a file at a time: a second (cron overlapping itself, two operators) is refused before it reads anything.
  let runLock: HeldLock | undefined;
  try {
    runLock = dryRun || resultsPath === undefined ? undefined : lockRun(options.fromFile, resultsPath);
    // The first signal lets the rows in flight settle: only the second cuts their look-ups short.
    const session = await context.openGateway({ connections: options.concurrency, stop: interrupts.hard });
    try {
      const ledger = await context.openLedger();
      const run = await ledger.bulkRun({ gateway: session.gateway, agentId: session.agentId });
      try {
        await runFile(context, session, ledger, run, options, { dryRun, resultsPath, live, interrupts, figures });
      } finally {
        await run.close();
      }
    } finally {
      await session.close({ abort: interrupts.hard.aborted });
    }
  } finally {
    runLock?.release();
    interrupts.release();
  }
}

interface RunOf {
  dryRun: boolean;
  resultsPath: string | undefined;
  live: ReturnType<typeof announceLive>;
  interrupts: ReturnType<typeof listenForInterrupts>;
  figures: JobFigures;
}

/** The file read into the ledger's table of it, planned, then shown (a dry run) or paid. */
async function runFile(
  context: CommandContext,
  session: GatewaySession,
  ledger: Ledger,
  run: BulkRun,
  options: BulkOptions,
  { dryRun, resultsPath, live, interrupts, figures }: RunOf,
): Promise<void> {
  const { out } = context;
  const input = options.fromFile === '-' ? 'stdin' : options.fromFile;
  const { written } = await readOrders(options.fromFile, options.fromFormat, () => out.stdin, options.notation, run);
  const runKey = resultsPath === undefined ? undefined : runKeyOf(resultsPath);
  if (runKey !== undefined) refuseChanged(input, resultsPath!, await run.resume(runKey));
  const starts = await planRows(context, session, ledger, options, run, () => interrupts.soft.aborted);
  interrupts.check();
  if (dryRun || runKey === undefined) return await showPlan(out, run);
  const writer = new ResultsWriter(resultsPath!, written, (left) =>
    out.note(t().bulk.resultsInUtf8(resultsPath!, left)),
  );
  writer.start();
  try {
    await keepRows(run, runKey);
    if (starts.earlier > 0) out.note(t().bulk.resume(resultsPath!, starts.final, starts.open, starts.new));
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
    await payRows(out, { rows: run, count: starts.rows }, work, writer, options.concurrency, interrupts, figures);
  } finally {
    writer.close();
  }
}

/** `agentpay pay --from-file`, measured for --metrics-file: a file refused for its bad rows counts them. */
export const runBulkPay = measured(
  () => 'pay_from_file',
  async (rawOptions, context, figures) => {
    try {
      await payFile(rawOptions, context, figures);
    } catch (error) {
      if (error instanceof BadRowsError || error instanceof DeskRowsRefusedError)
        figures.bulkRows = { ...bulkRowsOf(new Map(), 0), refused: error.rows };
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
