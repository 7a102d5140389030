import type { ClaimedBatch, JournalEntry } from './ledger.js';
import type { OutcomeRecord } from './records.js';

/** A batch of open transactions claimed by this process: its outcomes gathered, then written by
 * `end` at done(). record() settles only once `end` ran: until then the ledger holds none. */
export function claimedBatchOf<Waiting>(
  entries: readonly JournalEntry[],
  waitingOf: (outcome: OutcomeRecord) => Waiting,
  end: (learned: readonly Waiting[]) => Promise<{ unrecorded: number; failure?: unknown }>,
): ClaimedBatch {
  const learned: Waiting[] = [];
  let written = () => undefined as void;
  const committed = new Promise<void>((resolve) => (written = resolve));
  return {
    entries,
    record: (outcome) => {
      learned.push(waitingOf(outcome));
      return committed;
    },
    done: () => end(learned).finally(written),
  };
}
