import type { ClaimedBatch } from '../../ledger/ledger.js';
import type { CodeTable } from '../../protocol/codes.js';
import type { GatewaySession } from '../../purchase/session.js';
import type { CommandContext } from '../context.js';
import { forEachOrdered } from '../ordered-pool.js';
import { type Settled, settleEntry } from './settle-entry.js';

export interface BatchSettling {
  session: GatewaySession;
  codes: CodeTable;
  graceMs: number;
  concurrency: number;
  /** SIGINT or SIGTERM: no new look-up starts, and those it cut short are neither recorded nor shown. */
  stop: AbortSignal;
}

/** How reconcile and reconcile --registry settle: the session, the code table, --grace and --concurrency. */
export function batchSettling(
  context: CommandContext,
  session: GatewaySession,
  options: { grace: number; concurrency: number },
): BatchSettling {
  return {
    session,
    codes: context.settings.codes.table,
    graceMs: options.grace * 1000,
    concurrency: options.concurrency,
    stop: context.interrupts.signal,
  };
}

export interface BatchSettled {
  /** Outcomes learned and handed to the ledger (shown, each once the ledger had it). */
  learned: number;
  /** Of those, how many the ledger could keep nowhere, with the first reason (the batch's done()). */
  unrecorded: number;
  failure?: unknown;
}

// Status for a claimed batch, `concurrency` at a time, each result shown in batch order only once in the ledger
// (PostgreSQL records at done(), with the commit). After a stop only results that learned something are shown,
// and the batch is ended all the same.
export async function settleBatch(
  batch: ClaimedBatch,
  entries: Iterable<ClaimedBatch['entries'][number]>,
  how: BatchSettling,
  show: (settled: Settled) => void,
): Promise<BatchSettled> {
  let shown: Promise<void> = Promise.resolve();
  let learned = 0;
  const untilStopped = function* () {
    for (const entry of entries) {
      if (how.stop.aborted) return;
      yield entry;
    }
  };
  let done: Awaited<ReturnType<ClaimedBatch['done']>>;
  try {
    await forEachOrdered(
      untilStopped(),
      how.concurrency,
      (entry) => settleEntry(how.session, entry, how.codes, how.graceMs),
      (settled) => {
        if (how.stop.aborted && !settled.learned) return;
        let recorded: Promise<void> | undefined;
        if (settled.learned) {
          const { transactionId, gateway, agentId } = settled.entry.intent;
          recorded = batch.record({
            kind: 'outcome',
            transactionId,
            gateway,
            agentId,
            at: new Date().toISOString(),
            source: 'reconcile',
            view: settled.view,
          });
          learned++;
          // Awaited below, after done(); a failure here is not an unhandled rejection meanwhile.
          recorded.catch(() => undefined);
        }
        shown = shown.then(async () => {
          await recorded;
          show(settled);
        });
      },
    );
  } finally {
    done = await batch.done();
  }
  await shown;
  return { learned, ...done };
}
