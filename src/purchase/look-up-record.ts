import { AgentpayError } from '../errors.js';
import type { HeldTransaction, Ledger, Owner } from '../ledger/ledger.js';
import { replacesOutcome } from '../ledger/records.js';
import type { Output } from '../output.js';
import type { CodeTable } from '../protocol/codes.js';
import { isFinalState } from '../protocol/transaction-view.js';
import { t } from '../run-scope.js';
import { settledWord } from './settled-word.js';
import type { LookUpResult } from './status-look-up.js';

// Where a look-up (status, buy following a payment) records what it learned, as reconcile would: the same word
// (settled-word.ts), source "reconcile". An id the ledger does not hold records nothing.
export interface LookUpBook {
  /** The transaction as the ledger holds it, read before its Status leaves; undefined when it holds none. */
  held(transactionId: string): Promise<HeldTransaction | undefined>;
  /** Records what `result` learned of `held`, if anything; a failure to is told, never thrown. */
  record(held: HeldTransaction, result: LookUpResult): Promise<void>;
}

// The book of `owner` in the ledger `openLedger` opens once, when first asked (undefined: no ledger file yet).
// A ledger that cannot be opened is told once, and the look-ups go on without it.
export function lookUpBook(
  openLedger: () => Promise<Ledger | undefined>,
  owner: Owner,
  codes: CodeTable,
  out: Pick<Output, 'warn'>,
): LookUpBook {
  let opened: Promise<Ledger | undefined> | undefined;
  const ledger = () =>
    (opened ??= openLedger().catch((error: unknown) => {
      if (!(error instanceof AgentpayError)) throw error;
      out.warn(t().purchase.lookUpsNotRecorded(error.message));
      return undefined;
    }));
  return {
    held: async (transactionId) => {
      const book = await ledger();
      if (book === undefined) return undefined;
      try {
        return (await book.transaction(transactionId, owner))[0];
      } catch (error) {
        if (!(error instanceof AgentpayError)) throw error;
        out.warn(t().purchase.outcomeNotRecorded(error.message, transactionId));
        return undefined;
      }
    },
    record: async (held, result) => {
      const book = await ledger();
      const asked = result.answer !== undefined ? { answer: result.answer } : result.error;
      if (book === undefined || asked === undefined || result.notAnId) return;
      // "Not found" never closes a payment here: whether it is "never made" is reconcile's to say,
      // by its --grace (a slow gateway may show the payment yet).
      const word = settledWord(held, 'answer' in asked ? asked : { error: asked }, codes, Number.POSITIVE_INFINITY);
      const current = held.outcome?.view.state;
      // A final word stands (records.ts); the same final word again adds nothing.
      if (!word.learned || !replacesOutcome(current, word.view.state)) return;
      if (current !== undefined && isFinalState(current) && current === word.view.state) return;
      const { transactionId, gateway, agentId } = held.intent;
      const outcome = { kind: 'outcome', transactionId, gateway, agentId, source: 'reconcile' } as const;
      try {
        await book.recordOutcome({ ...outcome, at: new Date().toISOString(), view: word.view }, held.attempt);
      } catch (error) {
        if (!(error instanceof AgentpayError)) throw error;
        out.warn(t().purchase.outcomeNotRecorded(error.message, transactionId));
      }
    },
  };
}
