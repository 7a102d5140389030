import { AgentpayError, LocalStorageError } from '../../errors.js';
import type { JournalEntry, Ledger } from '../../ledger/ledger.js';
import type { CodeTable } from '../../protocol/codes.js';
import type { GatewaySession } from '../../purchase/session.js';
import { type SettledWord, settledWord } from '../../purchase/settled-word.js';

/** Settling one open ledger entry by Status, as `reconcile` does it (and `reconcile --registry --settle`). */

export type Settled = SettledWord & { entry: JournalEntry };

/** Asks Status about one open journal entry; what the answer settles is purchase/settled-word.ts's rule. */
export async function settleEntry(
  session: GatewaySession,
  entry: JournalEntry,
  codes: CodeTable,
  graceMs: number,
): Promise<Settled> {
  let answer;
  try {
    answer = await session.client.status(entry.intent.transactionId);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    return { entry, ...settledWord(entry, { error }, codes, graceMs) };
  }
  return { entry, ...settledWord(entry, { answer }, codes, graceMs) };
}

/** The error to end with when some outcome learned was recorded nowhere: they were printed `where`. */
export function unrecordedFailure(
  unrecorded: { count: number; failure: unknown },
  ledger: Ledger,
  where: string,
): LocalStorageError | undefined {
  if (unrecorded.count === 0) return undefined;
  const first = unrecorded.failure instanceof LocalStorageError ? unrecorded.failure : undefined;
  const count =
    unrecorded.count === 1
      ? '1 outcome learned from the gateway is'
      : `${unrecorded.count} outcomes learned from the gateway are`;
  return new LocalStorageError(
    'write the ledger',
    first?.path ?? ledger.location.shown,
    first?.cause ?? unrecorded.failure,
    {
      consequence: `${count} printed ${where} but not recorded`,
      hint: `${first?.hint ?? 'free the space or fix the permissions'}; then run reconcile again (it asks the gateway again)`,
    },
  );
}
