import { GatewayUnreachableError, LocalStorageError, UsageError } from '../errors.js';
import type { PaymentInput } from '../gateway/client.js';
import { payAndSettle, type SettleEvent } from '../gateway/settle.js';
import { findIntent } from '../journal/ledger.js';
import { differingParameters, type IntentRecord } from '../journal/records.js';
import { JournalWriter } from '../journal/writer.js';
import { type CodeTable, classifyCode } from '../protocol/codes.js';
import { type TransactionView, unknownView } from '../protocol/transaction-view.js';
import { answerText, errorOfView, type PaymentOutcome } from './outcome.js';
import type { PaymentSession, PurchaseContext } from './session.js';

/**
 * The replay guard: a TransactionID already journaled for another purchase is refused
 * before anything is sent; the same purchase again is the intended safe retry.
 */
async function guardReplay(context: PurchaseContext, intent: Intent): Promise<'new' | 'retry'> {
  const earlier = await findIntent(context.settings.journalPath.value, intent, (message) => context.out.warn(message));
  if (!earlier) return 'new';
  const differing = differingParameters(earlier, intent);
  if (differing.length > 0) {
    throw new UsageError(
      `transaction ${intent.transactionId} was already used on ${earlier.at} for another purchase (${differing
        .map((key) => `${key} ${earlier[key] ?? 'none'}`)
        .join(', ')}); nothing was sent`,
      {
        // Dropping --txn-id makes a new payment: say so, since the earlier one may have been paid.
        hint: `to retry the earlier purchase safely, repeat it exactly (${differing.map((key) => `${key} ${earlier[key] ?? 'none'}`).join(', ')}); only for a new, separate payment drop --txn-id`,
      },
    );
  }
  return 'retry';
}

/** `in progress, ResponseStatus 11 "В обработке"`, or the code with what the table makes of it. */
function openAnswerText(view: TransactionView, codes: CodeTable): string {
  const codeClass = view.status === null ? 'unclassified' : classifyCode(view.status, codes);
  const meaning = codeClass === 'pending' ? 'in progress' : codeClass === 'notFound' ? 'not found' : 'not classified';
  return `${meaning}, ${answerText(view)}`;
}

type Intent = Omit<IntentRecord, 'kind' | 'at'>;

function intentOf(session: PaymentSession, input: PaymentInput): Intent {
  return {
    transactionId: input.transactionId,
    gateway: session.gateway,
    agentId: session.agentId,
    service: input.service,
    account: input.account,
    amount: input.amount,
    currency: input.currency,
    invoiceId: input.invoiceId ?? null,
  };
}

/** The intent on disk, or a LocalStorageError that says no payment was sent. */
function writeIntent(journal: JournalWriter, intent: Intent): void {
  try {
    journal.append({ kind: 'intent', ...intent, at: new Date().toISOString() });
  } catch (error) {
    journal.close();
    if (!(error instanceof LocalStorageError)) throw error;
    throw new LocalStorageError('write the journal', journal.path, error.cause, {
      consequence: 'no payment was sent',
      hint: `a payment is only sent once its intent is on disk; ${error.hint ?? ''}`,
    });
  }
}

/**
 * Appends an outcome. The intent is on disk already; an outcome that cannot be written must
 * not turn a known answer into an error (exit 1 would read as "declined"): reconcile will ask the gateway.
 */
function outcomeRecorder(journal: JournalWriter, intent: Intent, out: PurchaseContext['out']) {
  const owner = { transactionId: intent.transactionId, gateway: intent.gateway, agentId: intent.agentId };
  return (view: TransactionView, source: 'payment' | 'settle') => {
    try {
      journal.append({ kind: 'outcome', ...owner, at: new Date().toISOString(), source, view });
    } catch (error) {
      out.warn(`${(error as Error).message}: the outcome of ${intent.transactionId} is not recorded; \`agentpay reconcile\` will settle it from the gateway`);
    }
  };
}

/** What settling reports while it asks the gateway, as notes for the person. */
function settleNotes(context: PurchaseContext, transactionId: string) {
  const { out, settings } = context;
  return (event: SettleEvent) => {
    if (event.kind === 'lost') out.note(out.errorStyle.pending(`the answer to payment ${transactionId} was lost (${event.reason}); asking the gateway with Status`));
    else if (event.kind === 'open')
      out.note(out.errorStyle.pending(`payment ${transactionId} is not final yet (${openAnswerText(event.view, settings.codes.table)}); asking the gateway with Status`));
    else if (event.kind === 'not-found-resend')
      out.note(out.errorStyle.pending('the gateway does not know it: sending the same payment again (same TransactionID, so it cannot pay twice)'));
  };
}

/**
 * Pays and settles one purchase with the journal's promise kept: the intent is on disk
 * before the Payment may leave, and every outcome is appended. Ctrl+C or SIGTERM while the
 * payment is out stops settling and leaves it "unknown" (exit 3), never "failed".
 */
export async function executePayment(
  context: PurchaseContext,
  session: PaymentSession,
  input: PaymentInput,
  options: { checkReplay: boolean; signal?: AbortSignal | undefined },
): Promise<PaymentOutcome> {
  const { settings, out } = context;
  const intent = intentOf(session, input);
  const attempt = options.checkReplay ? await guardReplay(context, intent) : 'new';
  if (attempt === 'retry') {
    out.note(out.errorStyle.dim(`transaction ${input.transactionId} is in the journal for this purchase: asking the gateway again (a repeat pays nothing twice)`));
  }
  const journal = new JournalWriter(settings.journalPath.value);
  const recordOutcome = outcomeRecorder(journal, intent, out);
  writeIntent(journal, intent);
  // Ctrl+C, and SIGTERM (how cron and service managers stop a process), stop settling.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  if (options.signal?.aborted) onInterrupt();
  try {
    const settled = await payAndSettle(session.client, input, {
      attempts: settings.settle.attempts.value,
      delayMs: settings.settle.delayMs.value,
      codes: settings.codes.table,
      signal: interrupt.signal,
      onEvent: settleNotes(context, input.transactionId),
    });
    recordOutcome(settled.view, settled.settledBy);
    return { view: settled.view, error: errorOfView(settled.view, settings.codes.table) };
  } catch (error) {
    // Proven not sent (e.g. connection refused): closed in the journal as failed, unless an
    // earlier attempt with this TransactionID may have been paid; then it stays open for reconcile.
    if (error instanceof GatewayUnreachableError && attempt === 'new') {
      recordOutcome({ ...unknownView(input, 'Payment', `not sent: ${error.message}`), state: 'failed' }, 'payment');
    }
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    options.signal?.removeEventListener('abort', onInterrupt);
    journal.close();
  }
}
