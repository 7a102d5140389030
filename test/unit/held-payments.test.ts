import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalPayments } from '../../src/ledger/file/payments.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord } from '../../src/ledger/records.js';
import { type TransactionState, unknownView } from '../../src/protocol/transaction-view.js';
import { gathered } from '../helpers/gathered.js';

/*
 * The payments reconcile --registry compares are held as bytes (held-payments.ts), each field
 * as what it shares with the payment before and the rest: what comes back must be the text
 * that went in, whatever its length, alphabet or line form, in order of first intent.
 */
const owner = { gateway: 'sandbox', agentId: '1001' };

function intent(transactionId: string, at: string, account = 'a', amount = '100.00'): IntentRecord {
  return {
    kind: 'intent',
    ...owner,
    transactionId,
    service: '201',
    account,
    amount,
    currency: 'KZT',
    invoiceId: null,
    at,
  };
}

function outcome(transactionId: string, state: TransactionState): string {
  const view = { ...unknownView({ transactionId }, 'Status', state), state };
  return lineOf({
    kind: 'outcome',
    ...owner,
    transactionId,
    at: '2026-01-02T23:00:00.000Z',
    source: 'reconcile',
    view,
  });
}

describe('journalPayments holds its payments as bytes', () => {
  it('gives back every field as written, in order of first intent since the start of the span', async () => {
    const long = `${'7'.repeat(300)}ё`;
    // Another writer's key order, and an escaped control character: read by readRecord, not the scanner.
    const parsed = { ...intent('12', '2026-01-02T10:00:00Z', 'счёт\u0001b', '5'), kind: 'intent' };
    const lines = [
      // First written before the span: its first intent since the start is the later one.
      lineOf(intent('0012', '2026-01-01T09:00:00.000Z')),
      lineOf(intent('9223372036854775807', '2026-01-02T08:00:00.000Z', long, '1.5')),
      outcome('9223372036854775807', 'success'),
      lineOf(intent('7 7', '2026-01-02T09:00:00.000Z', 'счёт-7')),
      outcome('7 7', 'failed'),
      JSON.stringify(Object.fromEntries(Object.entries(parsed).reverse())),
      lineOf(intent('0012', '2026-01-02T11:00:00.000Z', 'again')),
      outcome('0012', 'pending'),
      lineOf(intent('13', '2026-01-02T11:00:00.001Z', 'a'.repeat(70))),
      lineOf(intent('14', '2026-01-03T00:00:00.000Z')),
    ];
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-held-payments-')), 'journal.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const query = { since: new Date(Date.UTC(2026, 0, 2)), until: new Date(Date.UTC(2026, 0, 3)) };
    const payments = (await gathered(journalPayments(path, query, () => {}))).flat();
    expect(payments).toEqual([
      {
        transactionId: '9223372036854775807',
        account: long,
        amount: '1.5',
        at: '2026-01-02T08:00:00.000Z',
        state: 'success',
      },
      { transactionId: '7 7', account: 'счёт-7', amount: '100.00', at: '2026-01-02T09:00:00.000Z', state: 'failed' },
      { transactionId: '12', account: 'счёт\u0001b', amount: '5', at: '2026-01-02T10:00:00Z', state: 'unknown' },
      { transactionId: '0012', account: 'again', amount: '100.00', at: '2026-01-02T11:00:00.000Z', state: 'pending' },
      {
        transactionId: '13',
        account: 'a'.repeat(70),
        amount: '100.00',
        at: '2026-01-02T11:00:00.001Z',
        state: 'unknown',
      },
    ]);
  });
});
