import { AgentpayError } from '../../errors.js';
import { reasonOf } from './connect.js';
import { deliverWaiting, type fallbackOf, setAside, type WaitingOutcome } from './fallback.js';

/** What delivering the fallback needs of the ledger that opens. */
export interface FallbackDelivery {
  fallback: ReturnType<typeof fallbackOf>;
  /** Appends outcomes in one statement, in the connection's turn; throws what the database said. */
  insertOutcomes(outcomes: readonly WaitingOutcome[]): Promise<void>;
  /** A message for the person. */
  note(message: string): void;
  /** The connection's: set once it is gone. */
  lost: { readonly error?: unknown };
}

/** The outcomes this machine kept while the ledger was away, delivered. Never fatal: a
 * delivery the database cannot take now stays for the next command; an outcome it refuses for
 * what it holds is set aside (postgres/fallback.ts), so it cannot hold up the others. */
export async function deliverFallback({ fallback, insertOutcomes, note, lost }: FallbackDelivery): Promise<void> {
  const deliver = async (outcomes: WaitingOutcome[]): Promise<number> => {
    try {
      await insertOutcomes(outcomes);
      return outcomes.length;
    } catch (error) {
      if (lost.error !== undefined) throw error;
      const refused: WaitingOutcome[] = [];
      for (const outcome of outcomes) await insertOutcomes([outcome]).catch(() => refused.push(outcome));
      if (refused.length > 0) {
        const path = setAside(fallback, refused);
        note(
          `the ledger refused ${refused.length} outcome${refused.length === 1 ? '' : 's'} kept on this machine (${reasonOf(error)}): set aside in ${path}`,
        );
      }
      return outcomes.length - refused.length;
    }
  };
  try {
    const delivered = await deliverWaiting(fallback, deliver);
    if (delivered > 0)
      note(
        `delivered ${delivered} outcome${delivered === 1 ? '' : 's'} kept on this machine while the ledger was unreachable`,
      );
  } catch (error) {
    if (!(error instanceof AgentpayError) && lost.error === undefined) throw error;
    note(
      `outcomes kept on this machine wait for a later command: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
