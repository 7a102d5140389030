import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { unknownView } from '../../src/protocol/transaction-view.js';

/** Journal records for tests, as the writer writes them (lineOf). */
export const owner = { gateway: 'sandbox', agentId: '1001' };

export function intent(transactionId: string, at = '2026-11-21T10:00:00.000Z'): IntentRecord {
  return {
    kind: 'intent',
    ...owner,
    transactionId,
    service: '101',
    account: 'a',
    amount: '499.00',
    currency: 'KZT',
    invoiceId: null,
    at,
  };
}

export function outcome(transactionId: string, state: 'success' | 'failed' | 'pending' | 'unknown'): OutcomeRecord {
  const view = { ...unknownView({ transactionId }, 'Status', state), state };
  return { kind: 'outcome', ...owner, transactionId, at: '2026-11-21T10:00:01.000Z', source: 'reconcile', view };
}

export const linesOf = (records: readonly (IntentRecord | OutcomeRecord | string)[]) =>
  `${records.map((r) => (typeof r === 'string' ? r : lineOf(r))).join('\n')}\n`;
