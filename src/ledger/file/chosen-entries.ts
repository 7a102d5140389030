import { type TransactionState, transactionStates } from '../../protocol/transaction-view.js';
import type { ChosenTransactions, Owner } from '../ledger.js';
import { attemptReopens, replacesOutcome } from '../records.js';
import { recordOf, type ScannedRecord } from './line-format.js';
import { closeAll, openJournalFiles } from './open-for-reading.js';
import { type JournalWarning, scanJournal } from './reader.js';

/**
 * The entries of chosen TransactionIDs (ledger.ts chosenEntries), in one pass over every file of
 * the journal, in reading order (the archive, then the live files, each up to where it ends as
 * opened: open-for-reading.ts). The chooser's own numbers key them, so the journal keeps one
 * byte a chosen transaction here, its latest state, and nothing of the others: history's
 * reading (latest.ts) indexes every transaction of the journal first, then reads it again.
 * The rules are history's: the first intent is the entry's; an outcome becomes the latest word
 * by records.ts replacesOutcome; a later intent after a failure reopens it (attemptReopens).
 */

/** No intent met yet; an intent without a latest word; an intent of another gateway or agent under the same key. */
const [unseen, open, others] = [0, 1, 0xff];
/** The latest word's state, as 2 + its index in transactionStates. */
const stateByte = (state: TransactionState) => 2 + transactionStates.indexOf(state);

export async function chosenEntries(
  path: string,
  owner: Owner,
  chosen: ChosenTransactions,
  warn: JournalWarning,
): Promise<void> {
  const ownerText = `${owner.gateway} ${owner.agentId}`;
  const state = new Uint8Array(chosen.count);
  /** The chosen number of a record's transaction, or -1. */
  const numberOf = (record: ScannedRecord): number => {
    if (record.owner === ownerText) return chosen.numberOf(record.id);
    // A TransactionID with a space: the key splits at its last space (line-format.ts keyed).
    if (record.owner.length > ownerText.length && record.owner.startsWith(`${ownerText} `))
      return chosen.numberOf(`${record.owner.slice(ownerText.length + 1)} ${record.id}`);
    return -1;
  };
  const visit = (record: ScannedRecord) => {
    const number = numberOf(record);
    if (number === -1) return;
    const current = state[number]!;
    if (current === others) return;
    if (record.kind === 'intent') {
      if (current === unseen) {
        const intent = recordOf(record);
        // The same key with another split of gateway, agent and id (spaces in them): not this owner's.
        if (intent.gateway !== owner.gateway || intent.agentId !== owner.agentId) {
          state[number] = others;
          return;
        }
        state[number] = open;
        chosen.intent(number, intent);
      } else if (current !== open && attemptReopens(transactionStates[current - 2])) {
        state[number] = open;
        chosen.outcome(number, undefined);
      }
      return;
    }
    if (current === unseen) return;
    if (replacesOutcome(current === open ? undefined : transactionStates[current - 2], record.state)) {
      state[number] = stateByte(record.state);
      chosen.outcome(number, recordOf(record));
    }
  };
  const files = openJournalFiles(path);
  try {
    for (const { path: file, fd, end } of files)
      await scanJournal(file, warn, visit, end === undefined ? { fd } : { fd, end });
  } finally {
    closeAll(files);
  }
}
