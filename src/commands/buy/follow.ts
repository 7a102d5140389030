import { TransactionPendingError } from '../../errors.js';
import type { TransactionView } from '../../protocol/transaction-view.js';
import { errorOfView } from '../../purchase/outcome.js';
import { lookUpStatus } from '../../purchase/status-look-up.js';
import { renderReceipt } from '../../render/transaction.js';
import { t } from '../../run-scope.js';
import { Interrupted, untilInterrupted } from './interrupt.js';
import type { BuyScope } from './types.js';

/** A pending payment: Status until final, or until Ctrl+C (the payment stands either way); `onFinal` sees the final view. */
export async function followPending(
  { out, deps }: BuyScope,
  pending: TransactionView,
  onFinal: (view: TransactionView) => Promise<void>,
): Promise<void> {
  const id = pending.transactionId;
  const said = t();
  const lookItUp = said.buy.lookItUp(id);
  out.note(out.errorStyle.dim(said.buy.following));
  // Read before the Status leaves: what it learns is recorded as reconcile would (look-up-record.ts).
  const held = await deps.lookUpBook?.held(id);
  const spinner = out.startSpinner(said.buy.waiting(id));
  let result;
  try {
    result = await untilInterrupted(
      lookUpStatus(deps.client, id, deps.codes, Number.POSITIVE_INFINITY, {
        signal: deps.signal,
        pollWhile: 'pending',
        firstDelayMs: deps.firstDelayMs,
      }),
      deps.signal,
    );
  } catch (error) {
    if (error instanceof Interrupted) {
      throw new TransactionPendingError(said.buy.stoppedFollowing(id), { hint: lookItUp });
    }
    throw error;
  } finally {
    spinner.stop();
  }
  if (held !== undefined) await deps.lookUpBook?.record(held, result);
  if (result.error) {
    throw new TransactionPendingError(said.buy.couldNotFollow(id, result.error.message), { hint: lookItUp });
  }
  out.data(renderReceipt(result.view, out.style, 'payment', said));
  await onFinal(result.view);
  const error = errorOfView(result.view, deps.codes);
  if (error) throw error;
}
