import { describe, expect, it } from 'vitest';
import { FileAccounts } from '../../src/commands/pay/bulk/file-accounts.js';
import type { OrderRow } from '../../src/commands/pay/bulk/order-row.js';
import { OrderStore } from '../../src/commands/pay/bulk/order-store.js';
import type { ResultRow } from '../../src/commands/pay/bulk/results-file.js';
import { PriorRows } from '../../src/commands/pay/bulk/results-read.js';
import { LedgerRows } from '../../src/commands/pay/bulk/resume-ledger.js';
import type { IntentRecord } from '../../src/ledger/records.js';
import { type TransactionView, unknownView } from '../../src/protocol/transaction-view.js';

const order = (line: number, account: string, more: Partial<OrderRow> = {}): OrderRow => ({
  line,
  key: `k-${line}`,
  service: '202',
  account,
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount: '1500.00',
  ...more,
});

const storeOf = (rows: OrderRow[]) => {
  const store = new OrderStore();
  for (const row of rows) store.push(row);
  return store;
};

const intentOf = (row: OrderRow, more: Partial<IntentRecord> = {}): IntentRecord => ({
  kind: 'intent',
  transactionId: `${row.line}`,
  gateway: 'sandbox',
  agentId: '1001',
  service: row.service,
  account: row.account,
  amount: row.amount ?? '',
  currency: row.currency,
  invoiceId: row.invoiceId ?? null,
  operator: 'ann',
  host: 'vm',
  at: '2026-01-01T00:00:00.000Z',
  ...more,
});

/** The row as a results file has it: a line without a word of its own, so every word the ledger holds differs from it. */
const inFile = (row: OrderRow, more: Partial<ResultRow> = {}): ResultRow => ({
  ...row,
  transactionId: `${row.line}`,
  paidAmount: row.amount,
  paidInvoiceId: row.invoiceId,
  voucher: undefined,
  state: 'planned',
  status: undefined,
  message: undefined,
  ...more,
});

const viewOf = (row: OrderRow, more: Partial<TransactionView>): TransactionView => ({
  ...unknownView({ transactionId: `${row.line}` }, 'Payment', ''),
  ...more,
});

describe("a resumed run's ledger entries, packed by row", () => {
  it('gives back what the run reads of each entry: what the intent paid, the state, status, RequestID and message', () => {
    const rows = [
      order(2, 'a'),
      order(3, 'b', { amount: undefined, invoicePosition: 1 }),
      order(4, 'c'),
      order(5, 'd'),
      order(6, 'e'),
    ];
    const held = new LedgerRows(storeOf(rows), rows.length);
    const put = (index: number, intent: IntentRecord, view: TransactionView | undefined) => {
      held.intent(index, intent);
      held.outcome(index, view);
    };
    put(0, intentOf(rows[0]!), viewOf(rows[0]!, { state: 'success', status: '10', requestId: '77', message: 'Успех' }));
    put(1, intentOf(rows[1]!, { amount: '990.00', invoiceId: 'INV-1', voucher: 'Тариф «Мини»' }), undefined);
    put(
      2,
      intentOf(rows[2]!),
      viewOf(rows[2]!, { state: 'failed', status: null, requestId: null, message: 'not sent' }),
    );
    put(3, intentOf(rows[3]!), viewOf(rows[3]!, { state: 'pending', status: '1', requestId: 'R-ё', message: '' }));

    const first = held.entryOf(0, rows[0]!, inFile(rows[0]!));
    expect(first?.intent).toEqual({ amount: '1500.00', invoiceId: null });
    expect(first?.outcome?.view).toMatchObject({
      transactionId: '2',
      state: 'success',
      status: '10',
      requestId: '77',
      message: 'Успех',
      account: 'a',
    });
    expect(held.entryOf(1, rows[1]!, inFile(rows[1]!))).toEqual({
      intent: { amount: '990.00', invoiceId: 'INV-1', voucher: 'Тариф «Мини»' },
      outcome: undefined,
    });
    expect(held.entryOf(2, rows[2]!, inFile(rows[2]!))?.outcome?.view).toMatchObject({
      state: 'failed',
      status: null,
      requestId: null,
      message: 'not sent',
    });
    expect(held.entryOf(3, rows[3]!, inFile(rows[3]!))?.outcome?.view).toMatchObject({
      state: 'pending',
      requestId: 'R-ё',
    });
    expect(held.entryOf(4, rows[4]!, inFile(rows[4]!))).toBeUndefined();
    // A later word replaces the one before; none (a new attempt after a failure) leaves the intent open.
    held.outcome(2, viewOf(rows[2]!, { state: 'unknown', status: null, requestId: '5', message: 'no answer' }));
    expect(held.entryOf(2, rows[2]!, inFile(rows[2]!))?.outcome?.view).toMatchObject({
      state: 'unknown',
      requestId: '5',
    });
    held.outcome(2, undefined);
    expect(held.entryOf(2, rows[2]!, inFile(rows[2]!))).toEqual({
      intent: { amount: '1500.00', invoiceId: null },
      outcome: undefined,
    });
    // A new file's: no row has an entry.
    expect(new LedgerRows(storeOf(rows), 0).entryOf(0, rows[0]!, inFile(rows[0]!))).toBeUndefined();
  });
});

describe("a resumed run's ledger words, many of them", () => {
  it('keeps each row its own word and RequestID past 256 distinct words', () => {
    const rows = Array.from({ length: 600 }, (_, i) => order(i + 2, `a-${i}`));
    const held = new LedgerRows(storeOf(rows), rows.length);
    const requestId = (i: number) => `${2n ** 63n + BigInt(i) * 3n}`;
    rows.forEach((row, i) => {
      held.intent(i, intentOf(row));
      held.outcome(
        i,
        viewOf(row, { state: 'success', status: '10', requestId: requestId(i), message: `word ${i % 400}` }),
      );
    });
    const words = rows.map((row, i) => held.entryOf(i, row, inFile(row))?.outcome?.view);
    expect(words.map((view) => [view?.message, view?.requestId])).toEqual(
      rows.map((_, i) => [`word ${i % 400}`, requestId(i)]),
    );
  });
});

describe("a resumed run's ledger words the results file has too", () => {
  it("keeps none of its own for them, and gives back every row's word exactly", () => {
    const rows = Array.from({ length: 5 }, (_, i) => order(i + 2, `a-${i}`));
    const store = storeOf(rows);
    const prior = new PriorRows(store);
    /** [the results file's status and message, the ledger's] */
    const words: [[string | undefined, string | undefined], [string | null, string]][] = [
      [
        ['10', 'Платёж 2'],
        ['10', 'Платёж 2'],
      ],
      [
        [undefined, undefined],
        [null, ''],
      ],
      [
        [undefined, undefined],
        ['', ''],
      ],
      [
        ['10', 'a'],
        ['10', 'b'],
      ],
      [
        [undefined, 'x'],
        [null, 'x'],
      ],
    ];
    rows.forEach((row, i) =>
      prior.set(i, `${row.line}`, 'success', ['1500.00', undefined, undefined, ...words[i]![0]], {
        start: 0,
        length: 0,
      }),
    );
    const held = new LedgerRows(store, rows.length, prior);
    rows.forEach((row, i) => {
      held.intent(i, intentOf(row));
      const [status, message] = words[i]![1];
      held.outcome(i, viewOf(row, { state: 'success', status, message }));
    });
    const said = (i: number, inFile: ResultRow) => {
      const view = held.entryOf(i, rows[i]!, inFile)?.outcome?.view;
      return [view?.transactionId, view?.status, view?.message];
    };
    expect(rows.map((_, i) => said(i, prior.get(i)!))).toEqual(rows.map((row, i) => [`${row.line}`, ...words[i]![1]]));
    // Where the two said the same, the word is the file's (none kept beside it); elsewhere the ledger's own.
    const other = (i: number) => ({ ...prior.get(i)!, status: '99', message: 'the file now' });
    expect([0, 1, 2, 3, 4].map((i) => said(i, other(i)).slice(1))).toEqual([
      ['99', 'the file now'],
      ['99', 'the file now'],
      ['', ''],
      ['10', 'b'],
      ['99', 'the file now'],
    ]);
  });
});

describe("a file's accounts as a set", () => {
  it('answers whether an account is one of the rows chosen, and lists each once, a slice at a time', () => {
    const accounts = ['a', 'b', 'a', 'счёт', 'c', 'b', 'd'];
    const store = storeOf(accounts.map((account, i) => order(i + 2, account)));
    const all = new FileAccounts(store);
    expect(['a', 'b', 'c', 'd', 'счёт', 'e', 'сч', ''].map((account) => all.has(account))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([...all.slices(2)]).toEqual([['a', 'b'], ['счёт', 'c'], ['d']]);
    const some = new FileAccounts(store, (index) => index >= 4);
    expect(['a', 'b', 'c', 'd'].map((account) => some.has(account))).toEqual([false, true, true, true]);
    expect([...some.slices(10)]).toEqual([['c', 'b', 'd']]);
    all.release();
    some.release();
  });
});
