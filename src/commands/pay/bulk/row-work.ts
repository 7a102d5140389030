import { DeskRuleRefusedError } from '../../../desk-rule-error.js';
import { AgentpayError, ExitCode } from '../../../errors.js';
import type { PaymentInput } from '../../../gateway/client.js';
import type { IntentResult, Ledger } from '../../../ledger/ledger.js';
import { type TransactionView, unknownView } from '../../../protocol/transaction-view.js';
import { type DeskPolicy, deskGuard } from '../../../purchase/desk-guard.js';
import { executePayment, intentOf, type PurchaseNotes } from '../../../purchase/execute-payment.js';
import { exitCodeOfState } from '../../../purchase/outcome.js';
import type { PaymentSession, PurchaseContext } from '../../../purchase/session.js';
import { lookUpStatus } from '../../../purchase/status-look-up.js';
import type { RowResult, RowState } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import type { BulkRow } from './plan.js';
import type { ResultRow } from './results-file.js';

// One row of a bulk run paid, settled or skipped through pay's purchase layer (execute-payment.ts: the intent
// first, one TransactionID for every attempt); the desk's rules were applied to the whole file before.
export interface RowWork {
  context: PurchaseContext;
  session: PaymentSession;
  ledger: Ledger;
  /** Aborted by a second Ctrl+C: settling stops, the payments in flight stay unknown. */
  hardStop: AbortSignal;
  /** The guards lifted for every row ("yes" through a live profile). */
  overrides: readonly string[];
  /** Where the rows' outcomes go while they are written, so that a row's slot goes on to the next. */
  outcomes: OutcomeWrites;
  // The desk's rules again where each intent is written, in one step with it: another run or terminal may have
  // paid the same since the plan weighed the file.
  desk: DeskPolicy;
}

// The outcomes rows handed over (executePayment's deferOutcome) on their way into the ledger: the next row starts
// meanwhile and shares the fsync. The run waits for all before it sums up.
export class OutcomeWrites {
  private readonly pending = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  readonly take = (recorded: Promise<void>): void => {
    const tracked: Promise<void> = recorded
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  };

  /** Once every outcome handed over is written. A ledger's failure was warned of already; anything else is thrown here. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure !== undefined) throw this.failure.error;
  }
}

/** A row not sent for a reason that stops the run from starting rows: the gateway or the ledger cannot be reached (4), or a local file cannot be written (6). */
export const stopsTheRunCode = (code: number) => code === ExitCode.unreachable || code === ExitCode.localStorage;

function resultOf(row: BulkRow, view: TransactionView | undefined, skipped: boolean, error?: AgentpayError): RowResult {
  const state: RowState = error === undefined && view !== undefined ? view.state : 'not-sent';
  return {
    line: row.line,
    key: row.key,
    transactionId: row.transactionId ?? '',
    state,
    service: row.service,
    account: row.account,
    currency: row.currency,
    amount: row.paidAmount ?? row.amount ?? '',
    invoiceId: row.paidInvoiceId,
    voucher: row.voucher,
    status: view?.status ?? null,
    requestId: view?.requestId ?? null,
    message: error?.message ?? view?.message ?? '',
    skipped,
    paidAgain: row.start === 'open' && row.entry?.outcome?.view.state === 'failed',
    exitCode: error === undefined ? exitCodeOfState[state as Exclude<RowState, 'not-sent'>] : error.exitCode,
    rule: error instanceof DeskRuleRefusedError ? error.rule : undefined,
  };
}

/** The row as the results file keeps it: its word this run, else the ledger's latest (none yet: planned). */
export function resultRowOf(row: BulkRow, result?: RowResult): ResultRow {
  const said = result !== undefined && result.state !== 'not-sent' ? { ...result, state: result.state } : undefined;
  const ledgers = row.entry?.outcome?.view;
  return {
    line: row.line,
    key: row.key,
    service: row.service,
    account: row.account,
    currency: row.currency,
    invoiceId: row.invoiceId,
    invoicePosition: row.invoicePosition,
    amount: row.amount,
    transactionId: row.transactionId!,
    paidAmount: row.paidAmount,
    paidInvoiceId: row.paidInvoiceId,
    voucher: row.voucher,
    state: said?.state ?? ledgers?.state ?? 'planned',
    status: (said === undefined ? ledgers?.status : said.status) ?? undefined,
    message: said === undefined ? ledgers?.message : said.message,
  };
}

function paymentInputOf(row: BulkRow): PaymentInput {
  return {
    service: row.service,
    account: row.account,
    currency: row.currency,
    transactionId: row.transactionId!,
    amount: row.paidAmount!,
    invoiceId: row.paidInvoiceId,
  };
}

const notesOf = (work: RowWork, row: BulkRow): PurchaseNotes => ({
  voucher: row.voucher,
  overrides: [...work.overrides, ...row.lifted],
});

async function pay(
  work: RowWork,
  row: BulkRow,
  checkReplay: boolean,
  recorded?: Promise<IntentResult>,
): Promise<TransactionView> {
  const outcome = await executePayment(work.context, work.session, paymentInputOf(row), {
    checkReplay,
    signal: work.hardStop,
    ownSignals: false,
    notes: notesOf(work, row),
    desk: work.desk,
    deferOutcome: work.outcomes.take,
    recorded,
  });
  return outcome.view;
}

// The intents of rows about to start, written ahead so a row's Payment does not wait for its own fsync: only new
// rows, none when payments need an open shift. One never started is closed as not sent (after a SIGKILL it stays
// open, and the next run settles it by Status).
export class IntentsAhead {
  /** Written ahead, not started yet. */
  private readonly recorded = new Map<number, { row: BulkRow; recorded: Promise<IntentResult> }>();
  private next = 0;

  constructor(
    private readonly work: RowWork,
    private readonly rows: { at(index: number): BulkRow | undefined },
    private readonly window: number,
  ) {}

  // The row at `index` starts: its own intent if written ahead, and the next window's on its way once fewer than
  // a window remain; claims made together share one lock and one look-back.
  start(index: number): Promise<IntentResult> | undefined {
    const { work, rows } = this;
    // With shifts, a row's intent waits for its own shift check (executePayment): one written
    // ahead would outlive a refusal, an intent open ("unknown") for a payment never sent.
    if (work.context.settings.desk.shifts) return undefined;
    const until = this.next > index + this.window ? this.next : index + 1 + 2 * this.window;
    for (; this.next < until; this.next++) {
      const row = rows.at(this.next);
      if (row === undefined) break;
      if (row.start !== 'new' || row.earlier) continue;
      const intent = intentOf(work.session, paymentInputOf(row), notesOf(work, row));
      const recorded = work.ledger.recordIntent(intent, {
        checkReplay: false,
        guard: deskGuard(work.context, intent, work.desk),
      });
      // Handled when the row starts (or is closed); never an unhandled rejection meanwhile.
      recorded.catch(() => undefined);
      this.recorded.set(this.next, { row, recorded });
    }
    const ahead = this.recorded.get(index);
    this.recorded.delete(index);
    return ahead?.recorded;
  }

  /** Closes the rows written ahead that never started: failed, not sent (their intents are on disk, no Payment left). */
  async closeUnstarted(): Promise<void> {
    const { work } = this;
    for (const { row, recorded } of this.recorded.values()) {
      const result = await recorded.catch(() => undefined);
      if (result === undefined || result.kind === 'conflict') continue;
      const input = paymentInputOf(row);
      const view = {
        ...unknownView(input, 'Payment', 'not sent: the run stopped before this row'),
        state: 'failed' as const,
      };
      const owner = {
        transactionId: input.transactionId,
        gateway: work.session.gateway,
        agentId: work.session.agentId,
      };
      const written = work.ledger.recordOutcome(
        { kind: 'outcome', ...owner, at: new Date().toISOString(), source: 'payment', view },
        result.attempt,
      );
      // As for any outcome (execute-payment.ts): one that cannot be written leaves the row open, for the next run to settle.
      work.outcomes.take(
        written.catch((error: unknown) => {
          if (!(error instanceof AgentpayError)) throw error;
          work.context.out.warn(t().purchase.outcomeNotRecorded(error.message, input.transactionId));
        }),
      );
    }
  }
}

// An open row: Status first (spec 1); a final or in-progress answer is recorded and stands, "not found" or none
// sends the same Payment again (spec 3 rule 2: one TransactionID pays once).
async function settleOpen(work: RowWork, row: BulkRow): Promise<TransactionView> {
  const { context, session, ledger } = work;
  const codes = context.settings.codes.table;
  const { view } = await lookUpStatus(session.client, row.transactionId!, codes, Date.now(), {
    signal: work.hardStop,
    firstDelayMs: context.settings.settle.delayMs.value,
  });
  if (view.state === 'success' || view.state === 'failed' || view.state === 'pending') {
    const owner = { transactionId: row.transactionId!, gateway: session.gateway, agentId: session.agentId };
    const full = {
      ...view,
      service: view.service ?? row.service,
      account: view.account ?? row.account,
      amount: view.amount ?? row.paidAmount ?? null,
      currency: view.currency ?? row.currency,
    };
    await ledger.recordOutcome({
      kind: 'outcome',
      ...owner,
      at: new Date().toISOString(),
      source: 'settle',
      view: full,
    });
    return full;
  }
  return pay(work, row, true);
}

/** Does the row's work; an error that proves nothing was sent becomes a "not sent" result (a bug is thrown). */
export async function workOnRow(work: RowWork, row: BulkRow, recorded?: Promise<IntentResult>): Promise<RowResult> {
  if (row.start === 'final') return resultOf(row, row.entry?.outcome?.view, true);
  try {
    const view = row.start === 'open' ? await settleOpen(work, row) : await pay(work, row, row.earlier, recorded);
    return resultOf(row, view, false);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    return resultOf(row, undefined, false, error);
  }
}
