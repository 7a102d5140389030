import { describe, expect, it } from 'vitest';
import { startOf } from '../../src/commands/pay/bulk/plan.js';
import type { JournalEntry } from '../../src/ledger/ledger.js';
import type { CodeTable } from '../../src/protocol/codes.js';
import { type TransactionState, unknownView } from '../../src/protocol/transaction-view.js';

// Where a resumed row starts, by the ledger's entry for its TransactionID: a final word is
// skipped; a failure that is not the gateway's word on the payment ("not sent", or reconcile's
// "never made": a notFound code) is paid again; a row the ledger holds no intent of was never sent.
const codes: CodeTable = { pending: new Set(['20']), notFound: new Set(['404']), failed: new Set(['30']) };
const transactionId = '1795000000000000001';
const entry = (state: TransactionState | undefined, status: string | null): JournalEntry => {
  const owner = { transactionId, gateway: 'sandbox', agentId: '1001' };
  return {
    intent: {
      kind: 'intent',
      ...owner,
      service: '201',
      account: 'a-1',
      amount: '10.00',
      currency: 'KZT',
      invoiceId: null,
      at: '2026-01-01T00:00:00.000Z',
    },
    outcome:
      state === undefined
        ? undefined
        : {
            kind: 'outcome',
            ...owner,
            at: '2026-01-01T00:00:01.000Z',
            source: 'payment',
            view: { ...unknownView({ transactionId }, 'Payment', ''), state, status },
          },
  };
};

describe("a resumed row's start", () => {
  it('skips the gateway’s word: a success, a failure with a failed code', () => {
    expect(startOf(entry('success', '10'), codes)).toBe('final');
    expect(startOf(entry('failed', '30'), codes)).toBe('final');
  });

  it('pays again a failure that is not: "not sent" (no status), "never made" (a notFound code)', () => {
    expect(startOf(entry('failed', null), codes)).toBe('open');
    expect(startOf(entry('failed', '404'), codes)).toBe('open');
  });

  it('settles an intent without a final word, and pays a row the ledger holds no intent of', () => {
    expect(startOf(entry(undefined, null), codes)).toBe('open');
    expect(startOf(entry('unknown', '404'), codes)).toBe('open');
    expect(startOf(entry('pending', '20'), codes)).toBe('open');
    expect(startOf(undefined, codes)).toBe('new');
  });
});
