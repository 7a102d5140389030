import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../src/commands/pay/bulk/order-row.js';
import { bulkRowOf } from '../../src/commands/pay/bulk/plan.js';
import type { ResultRow } from '../../src/commands/pay/bulk/results-file.js';
import type { LedgerWord } from '../../src/commands/pay/bulk/resume-ledger.js';
import type { CodeTable } from '../../src/protocol/codes.js';
import { type TransactionState, unknownView } from '../../src/protocol/transaction-view.js';

// Where a resumed row starts: a final word is skipped; a failure that is not the gateway's word
// on the payment ("not sent", or reconcile's "never made": a notFound code) is paid again.
const codes: CodeTable = { pending: new Set(['20']), notFound: new Set(['404']), failed: new Set(['30']) };
const order: OrderRow = {
  line: 2,
  key: undefined,
  service: '201',
  account: 'a-1',
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount: '10.00',
};
const prior = (state: ResultRow['state'], status?: string): ResultRow => ({
  ...order,
  transactionId: '1795000000000000001',
  paidAmount: '10.00',
  paidInvoiceId: undefined,
  voucher: undefined,
  state,
  status,
  message: undefined,
});
const entry = (state: TransactionState | undefined, status: string | null): LedgerWord => ({
  intent: { amount: '10.00', invoiceId: null },
  outcome:
    state === undefined
      ? undefined
      : { view: { ...unknownView({ transactionId: '1795000000000000001' }, 'Payment', ''), state, status } },
});

describe("a resumed row's start", () => {
  it('skips the gateway’s word: a success, a failure with a failed code', () => {
    expect(bulkRowOf(order, prior('planned'), entry('success', '10'), codes).start).toBe('final');
    expect(bulkRowOf(order, prior('planned'), entry('failed', '30'), codes).start).toBe('final');
    expect(bulkRowOf(order, prior('failed', '30'), undefined, codes).start).toBe('final');
  });

  it('pays again a failure that is not: "not sent" (no status), "never made" (a notFound code)', () => {
    expect(bulkRowOf(order, prior('planned'), entry('failed', null), codes).start).toBe('open');
    expect(bulkRowOf(order, prior('failed', '404'), entry('failed', '404'), codes).start).toBe('open');
    expect(bulkRowOf(order, prior('failed', '404'), undefined, codes).start).toBe('new');
  });

  it('settles an intent without a final word, and pays a row the ledger does not hold', () => {
    expect(bulkRowOf(order, prior('planned'), entry(undefined, null), codes).start).toBe('open');
    expect(bulkRowOf(order, prior('unknown'), entry('unknown', '404'), codes).start).toBe('open');
    expect(bulkRowOf(order, prior('planned'), undefined, codes).start).toBe('new');
  });
});
