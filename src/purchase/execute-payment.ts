import {
  AgentpayError,
  GatewayUnreachableError,
  LedgerUnreachableError,
  LocalStorageError,
  noPaymentSent,
  ReplayMissError,
  UsageError,
} from '../errors.js';
import type { PaymentInput } from '../gateway/client.js';
import { payAndSettle, type SettleEvent } from '../gateway/settle.js';
import { en } from '../i18n/en.js';
import { gatewayFaultMessage } from '../i18n/gateway-fault-words.js';
import type { AttemptRef, Intent, IntentResult, Ledger } from '../ledger/ledger.js';
import { differingParameters, type IntentRecord } from '../ledger/records.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import { type TransactionView, unknownView } from '../protocol/transaction-view.js';
import { t } from '../run-scope.js';
import type { Spinner } from '../spinner.js';
import { type DeskPolicy, deskFindings, deskGuard, enforceDesk, enforceDeskAlone } from './desk-guard.js';
import { answerText, errorOfView, type PaymentOutcome } from './outcome.js';
import type { PaymentSession, PurchaseContext } from './session.js';

/** A TransactionID already recorded for another purchase: refused before anything is sent. */
function replayRefusal(intent: Intent, earlier: IntentRecord): UsageError {
  const differing = differingParameters(earlier, intent).map((key) => `${key} ${earlier[key] ?? t().purchase.none}`);
  return new UsageError(t().purchase.replay(intent.transactionId, earlier.at, differing.join(', ')), {
    // Dropping --txn-id makes a new payment: say so, since the earlier one may have been paid.
    hint: t().purchase.replayHint(differing.join(', ')),
  });
}

// The intent in the ledger, or an error that says no payment was sent. The desk's checks and the replay guard
// run where the ledger writes it, in one atomic step; the same purchase again is the safe retry (it cannot pay
// twice), a TransactionID held for another purchase is refused.
async function recordIntent(
  context: PurchaseContext,
  intent: Intent,
  options: { checkReplay: boolean; desk?: DeskPolicy | undefined; confirm?: (() => Promise<void>) | undefined },
): Promise<{ ledger: Ledger; attempt: 'new' | 'retry'; ref: AttemptRef }> {
  try {
    const { desk, confirm } = options;
    const ledger = await context.openLedger();
    if (confirm !== undefined) {
      // Nobody is asked about a payment then refused: the rules first, as a preview.
      if (desk !== undefined && !(options.checkReplay && (await isSafeRetry(ledger, intent))))
        enforceDesk(await deskFindings(context, async () => ledger, intent, desk), desk);
      await confirm();
      // The question may have waited while the shift closed elsewhere: asked again after it.
      await (await import('./shift-guard.js')).requireOpenShift(context);
    }
    const guard = desk === undefined ? undefined : deskGuard(context, intent, desk);
    if (desk !== undefined && guard === undefined) {
      const lifted = enforceDeskAlone(context, intent, desk);
      if (lifted.length > 0) intent.overrides = [...(intent.overrides ?? []), ...lifted];
    }
    const result = await ledger.recordIntent(intent, { checkReplay: options.checkReplay, guard });
    if (result.kind === 'conflict') throw replayRefusal(intent, result.earlier);
    return { ledger, attempt: result.kind, ref: result.attempt };
  } catch (error) {
    throw nothingSent(error);
  }
}

/** Whether the ledger holds this TransactionID for this very purchase already (a retry with --txn-id). */
async function isSafeRetry(ledger: Ledger, intent: Intent): Promise<boolean> {
  const entries = await ledger.transaction(intent.transactionId, intent);
  return entries.some((entry) => differingParameters(entry.intent, intent).length === 0);
}

// An intent the caller recorded already (a bulk run writes ahead): recordIntent's answers once it is on disk.
async function recordedAhead(
  context: PurchaseContext,
  intent: Intent,
  recorded: Promise<IntentResult>,
): Promise<{ ledger: Ledger; attempt: 'new' | 'retry'; ref: AttemptRef }> {
  try {
    const result = await recorded;
    if (result.kind === 'conflict') throw replayRefusal(intent, result.earlier);
    return { ledger: await context.openLedger(), attempt: result.kind, ref: result.attempt };
  } catch (error) {
    throw nothingSent(error);
  }
}

/** A ledger's failure before anything was sent, saying so (exit 4 or 6 as the failure's own). */
export function nothingSent(error: unknown): unknown {
  const notSent = noPaymentSent();
  if (error instanceof LedgerUnreachableError && error.consequence !== notSent) return error.withConsequence(notSent);
  if (!(error instanceof LocalStorageError) || error.consequence === notSent) return error;
  return new LocalStorageError(error.what, error.path, error.cause, {
    consequence: notSent,
    hint: t().purchase.notSentOnDisk(error.hint ?? ''),
  });
}

/** `in progress, ResponseStatus 11 "В обработке"`, or the code with what the table makes of it. */
function openAnswerText(view: TransactionView, codes: CodeTable): string {
  const codeClass = view.status === null ? 'unclassified' : classifyCode(view.status, codes);
  const meanings = t().purchase.meaning;
  const meaning =
    codeClass === 'pending' ? meanings.pending : codeClass === 'notFound' ? meanings.notFound : meanings.unclassified;
  return `${meaning}, ${answerText(view)}`;
}

/** What the ledger keeps of a purchase besides its parameters. */
export interface PurchaseNotes {
  /** The voucher's name, for the receipt. */
  voucher?: string | undefined;
  /** The desk's guards a person lifted for this payment ("yes", "over-limit", "allow-duplicate"). */
  overrides?: readonly string[] | undefined;
}

/** What the ledger records for a purchase before its Payment (the desk's checks weigh the same). */
export function intentOf(session: PaymentSession, input: PaymentInput, notes: PurchaseNotes = {}): Intent {
  return {
    transactionId: input.transactionId,
    gateway: session.gateway,
    agentId: session.agentId,
    service: input.service,
    account: input.account,
    amount: input.amount,
    currency: input.currency,
    invoiceId: input.invoiceId ?? null,
    ...(notes.voucher === undefined ? {} : { voucher: notes.voucher }),
    ...(notes.overrides === undefined || notes.overrides.length === 0 ? {} : { overrides: [...notes.overrides] }),
  };
}

// Appends an outcome. An outcome that cannot be written must not turn a known answer into an error (exit 1
// reads as "declined"): reconcile will ask the gateway.
function outcomeRecorder(ledger: Ledger, intent: Intent, attempt: AttemptRef, out: PurchaseContext['out']) {
  const owner = { transactionId: intent.transactionId, gateway: intent.gateway, agentId: intent.agentId };
  return async (view: TransactionView, source: 'payment' | 'settle') => {
    try {
      await ledger.recordOutcome({ kind: 'outcome', ...owner, at: new Date().toISOString(), source, view }, attempt);
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      out.warn(t().purchase.outcomeNotRecorded(error.message, intent.transactionId));
    }
  };
}

// Why a Payment provably never left, for the ledger in English: the gateway unreachable, or no recording.
function notSentReason(error: unknown): string | undefined {
  if (error instanceof GatewayUnreachableError) return gatewayFaultMessage(error.fault, en);
  if (error instanceof ReplayMissError) return `the replay has no recording of ${error.asked}`;
  return undefined;
}

// What settling reports as notes for the person; with `spinner` at a terminal, a spinner names the look-up.
function settleNotes(context: PurchaseContext, transactionId: string, spinner: boolean) {
  const { out, settings } = context;
  const live = spinner && !out.json && out.interactive;
  let waiting: Spinner | undefined;
  const wait = (text: string) => {
    waiting?.stop();
    waiting = live ? out.startSpinner(text) : undefined;
  };
  const onEvent = (event: SettleEvent) => {
    const said = t().purchase;
    if (event.kind === 'lost') out.note(out.errorStyle.pending(said.answerLost(transactionId, event.reason)));
    else if (event.kind === 'open')
      out.note(out.errorStyle.pending(said.notFinal(transactionId, openAnswerText(event.view, settings.codes.table))));
    else if (event.kind === 'not-found-resend') out.note(out.errorStyle.pending(said.resending));
    wait(said.lookingUp(transactionId, event.kind === 'lookup' ? event : undefined));
  };
  return { onEvent, stop: () => waiting?.stop() };
}

// Pays and settles one purchase: the intent is on disk before the Payment may leave and every outcome is
// appended. Ctrl+C or SIGTERM while it is out leaves it "unknown" (exit 3), never "failed".
export async function executePayment(
  context: PurchaseContext,
  session: PaymentSession,
  input: PaymentInput,
  options: {
    checkReplay: boolean;
    signal?: AbortSignal | undefined;
    notes?: PurchaseNotes;
    /** The desk's limits and duplicate check, before anything is recorded or sent (desk-guard.ts). */
    desk?: DeskPolicy | undefined;
    /** A last question for the person, once the checks have passed; throwing ends with nothing sent. */
    confirm?: (() => Promise<void>) | undefined;
    /** false: the caller handles Ctrl+C and SIGTERM through `signal` (a bulk run settles its in-flight rows). */
    ownSignals?: boolean;
    /** Checks and records one purchase at a time, so side-by-side payments (scenario --jobs) see each other. */
    exclusive?: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
    // Takes the outcome's record on its way to disk instead of waiting (a bulk run waits for all at its end).
    // The intent is on disk before the Payment left, so a lost outcome costs a Status, never a payment.
    deferOutcome?: ((recorded: Promise<void>) => void) | undefined;
    /** The intent recorded by the caller already (with its own desk checks); the Payment leaves once on disk. */
    recorded?: Promise<IntentResult> | undefined;
    /** A spinner at a terminal while settling waits on Status (one payment at a time: pay, not a bulk run). */
    spinner?: boolean;
  },
): Promise<PaymentOutcome> {
  const { settings, out } = context;
  const intent = intentOf(session, input, options.notes);
  // Before the intent, never after it: an intent the caller recorded (pay --approved, which
  // checked the shift first) refused here would stay open, "unknown", for a payment never sent.
  if (options.recorded === undefined)
    await (await import('./shift-guard.js')).requireOpenShift(context).catch((error: unknown) => {
      throw nothingSent(error);
    });
  const exclusive = options.exclusive ?? ((work) => work());
  const { ledger, attempt, ref } = await exclusive(() =>
    options.recorded === undefined
      ? recordIntent(context, intent, options)
      : recordedAhead(context, intent, options.recorded),
  );
  if (attempt === 'retry') {
    out.note(out.errorStyle.dim(t().purchase.retrying(input.transactionId)));
  }
  const recordOutcome = outcomeRecorder(ledger, intent, ref, out);
  // Ctrl+C, and SIGTERM (how cron and service managers stop a process), stop settling. A
  // caller that handles them itself (a bulk run) gives its own signal, taken as it is: a
  // thousand rows then make no AbortController and listener of their own.
  const ownSignals = options.ownSignals ?? true;
  const interrupt = ownSignals ? new AbortController() : undefined;
  const onInterrupt = () => interrupt?.abort();
  let stopListening: (() => void) | undefined;
  if (interrupt !== undefined) {
    // The signals main.ts hears, through the context (none in a context made without it).
    const interrupts = context.interrupts;
    stopListening = interrupts?.listen(onInterrupt);
    options.signal?.addEventListener('abort', onInterrupt, { once: true });
    if (options.signal?.aborted || interrupts?.signal.aborted) onInterrupt();
  }
  const notes = settleNotes(context, input.transactionId, options.spinner ?? false);
  try {
    const settled = await payAndSettle(session.client, input, {
      attempts: settings.settle.attempts.value,
      delayMs: settings.settle.delayMs.value,
      codes: settings.codes.table,
      signal: interrupt?.signal ?? options.signal,
      onEvent: notes.onEvent,
    }).finally(notes.stop);
    const recorded = recordOutcome(settled.view, settled.settledBy);
    if (options.deferOutcome === undefined) await recorded;
    else options.deferOutcome(recorded);
    return { view: settled.view, error: errorOfView(settled.view, settings.codes.table) };
  } catch (error) {
    // Proven not sent (e.g. connection refused): closed in the journal as failed, unless an
    // earlier attempt with this TransactionID may have been paid; then it stays open for reconcile.
    const notSent = notSentReason(error);
    if (notSent !== undefined && attempt === 'new') {
      await recordOutcome({ ...unknownView(input, 'Payment', `not sent: ${notSent}`), state: 'failed' }, 'payment');
    }
    throw error;
  } finally {
    if (interrupt !== undefined) {
      stopListening?.();
      options.signal?.removeEventListener('abort', onInterrupt);
    }
  }
}
