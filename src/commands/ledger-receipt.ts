import { writeFile } from 'node:fs/promises';
import { errnoCodeOf } from '../errors.js';
import type { PaymentInput } from '../gateway/client.js';
import { approvalMarksOf } from '../ledger/approval-marks.js';
import type { JournalEntry, Owner } from '../ledger/ledger.js';
import { differingParameters } from '../ledger/records.js';
import { type TransactionView, unknownView } from '../protocol/transaction-view.js';
import type { LedgerReceipt } from '../render/receipt.js';
import { plainStyle } from '../render/style.js';
import { t } from '../run-scope.js';
import type { CommandContext } from './context.js';

/** The latest word on a transaction; one with no outcome on record is unknown, never failed. */
function latestView(entry: JournalEntry): TransactionView {
  return entry.outcome?.view ?? unknownView(entry.intent, 'Payment', t().receipt.noAnswerRecorded);
}

/** A ledger entry's receipt; `view`, the answer just received, when there is one. */
export function receiptOf(entry: JournalEntry, view: TransactionView = latestView(entry)): LedgerReceipt {
  const { voucher, operator, at } = entry.intent;
  return { view, voucher, operator, at, ...approvalMarksOf(entry.intent) };
}

/** Minutes east of UTC on this machine at `iso` (its summer or winter time). */
export const utcOffsetAt = (iso: string | undefined): number =>
  iso === undefined ? 0 : -new Date(iso).getTimezoneOffset();

const reasonOf = (error: unknown) => errnoCodeOf(error) ?? (error instanceof Error ? error.message : String(error));

/** The receipt of a purchase, its Payment sent or maybe sent, as the ledger has it: the entry of
 * this purchase (a TransactionID the ledger holds for another purchase is not this one's), with
 * `view`, the answer, when there is one. */
async function purchaseReceipt(
  context: CommandContext,
  owner: Owner,
  input: PaymentInput,
  view: TransactionView | undefined,
): Promise<LedgerReceipt | undefined> {
  try {
    const ledger = await context.openLedger();
    const [entry] = await ledger.transaction(input.transactionId, owner);
    const intent = { ...owner, ...input, invoiceId: input.invoiceId ?? null };
    if (entry !== undefined && differingParameters(entry.intent, intent).length === 0) return receiptOf(entry, view);
  } catch (error) {
    if (view === undefined) throw error;
    // The ledger cannot be read now: the receipt from the answer alone.
    context.out.warn(t().commands.receiptLeftOut(reasonOf(error)));
  }
  return view && { view };
}

/** `--receipt <file>`: the receipt written as plain text, once the outcome is known. Never throws:
 * the payment happened whatever becomes of its receipt, so its exit code stands; a file that
 * cannot be written is a warning. */
export async function writeReceiptFile(
  context: CommandContext,
  path: string,
  owner: Owner,
  input: PaymentInput,
  view: TransactionView | undefined,
): Promise<void> {
  const { out } = context;
  const id = input.transactionId;
  try {
    const receipt = await purchaseReceipt(context, owner, input, view);
    if (receipt === undefined) {
      out.warn(t().commands.receiptNotWritten(path, id));
      return;
    }
    const { renderLedgerReceipt } = await import('../render/receipt.js');
    await writeFile(
      path,
      `${renderLedgerReceipt(receipt, plainStyle, { utcOffsetMinutes: utcOffsetAt(receipt.at) }, t())}\n`,
    );
  } catch (error) {
    out.warn(t().commands.receiptCannotWrite(path, reasonOf(error), view === undefined ? undefined : id));
  }
}
