import type { JournalEntry } from '../ledger.js';
import { attemptReopens, type IntentRecord, type OutcomeRecord, ownerKey, replacesOutcome } from '../records.js';
import { recordOf } from './line-format.js';
import { closeAll, openJournalFiles } from './open-for-reading.js';
import { type JournalWarning, scanJournal, streamChunkBytes } from './reader.js';

/**
 * One TransactionID wherever the journal holds it (a receipt reprinted): for each gateway and
 * agent that used it, its latest attempt's intent (who made it, when, which voucher) and its
 * latest word by the ledger's rules, as history reads them (latest.ts): a final outcome is
 * replaced only as replacesOutcome allows, and a new attempt after a failure is open until its
 * own answer. Reads every file of the journal, the archive too, in order; only the lines of
 * this id are read whole.
 */
export async function findTransaction(
  path: string,
  transactionId: string,
  warn: JournalWarning,
): Promise<JournalEntry[]> {
  // A scanned record's id is the part of the TransactionID after its last space (line-format.ts keyed).
  const idTail = transactionId.slice(transactionId.lastIndexOf(' ') + 1);
  const found = new Map<string, JournalEntry>();
  const files = openJournalFiles(path);
  try {
    for (const { path: filePath, fd, end } of files) {
      await scanJournal(
        filePath,
        warn,
        (scanned) => {
          if (scanned.id !== idTail) return;
          const record = recordOf(scanned) as IntentRecord | OutcomeRecord;
          if (record.transactionId !== transactionId) return;
          const key = ownerKey(record);
          const entry = found.get(key);
          if (record.kind === 'intent') {
            if (entry === undefined) found.set(key, { intent: record, outcome: undefined });
            else {
              entry.intent = record;
              if (attemptReopens(entry.outcome?.view.state)) entry.outcome = undefined;
            }
          } else if (entry !== undefined && replacesOutcome(entry.outcome?.view.state, record.view.state)) {
            entry.outcome = record;
          }
        },
        { fd, chunkBytes: streamChunkBytes, ...(end === undefined ? {} : { end }) },
      );
    }
  } finally {
    closeAll(files);
  }
  return [...found.values()];
}
