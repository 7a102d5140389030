import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LookBackQuery, RecentPayment } from '../../src/ledger/ledger.js';
import { attemptReopens, type IntentRecord, type JournalRecord, replacesOutcome } from '../../src/ledger/records.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';
import type { TransactionState } from '../../src/protocol/transaction-view.js';
import { minutesAgo, now, yesterday } from '../helpers/desk-clock.js';
import { intent, outcome, owner } from '../helpers/journal-lines.js';
import { seedLedger } from '../helpers/ledger-file.js';
import { seededRandom } from '../helpers/seeded-random.js';

/**
 * The desk's look-back (ledger.ts recentPayments) on the SQLite ledger, its records loaded as
 * `ledger import` loads them: each transaction's latest attempt since then, of the owner, to one
 * of the accounts or by the operator, with its state by the ledger's rules.
 */

/** A SQLite ledger holding `records`, opened; the caller closes it. */
async function ledgerWith(records: readonly JournalRecord[]): Promise<SqliteLedger> {
  const path = join(mkdtempSync(join(tmpdir(), 'agentpay-look-back-')), 'ledger.sqlite');
  await seedLedger(path, records);
  return SqliteLedger.open(
    { kind: 'file', path, shown: path },
    { by: { operator: 'test', host: 'test-host' }, note: () => undefined },
  );
}

async function recentIn(records: readonly JournalRecord[], query: LookBackQuery) {
  const ledger = await ledgerWith(records);
  try {
    return await ledger.recentPayments(query);
  } finally {
    await ledger.close();
  }
}

const ids = (payments: RecentPayment[]) => payments.map((p) => `${p.intent.transactionId} ${p.state ?? '-'}`).sort();

describe("the ledger's recent payments", () => {
  const query = { ...owner, since: new Date(now.getTime() - 60 * 60_000), accounts: ['a'], operator: 'ann' };

  it("finds each transaction's latest attempt since then, with its state by the ledger's rules", async () => {
    const old = Array.from({ length: 200 }, (_, i) => ({ ...intent(`old-${i}`, yesterday), account: 'a' }));
    const records: JournalRecord[] = [
      ...old,
      // a retry today of yesterday's failed payment: open again, today
      { ...intent('retried', yesterday) },
      outcome('retried', 'failed'),
      { ...intent('retried', minutesAgo(30)) },
      { ...intent('1', minutesAgo(20)), operator: 'ann', account: 'b' },
      outcome('1', 'pending'),
      outcome('1', 'success'),
      outcome('1', 'unknown'), // a late, lost answer after success: success stands
      { ...intent('2', minutesAgo(10)), operator: 'bob', account: 'a' },
      outcome('2', 'failed'),
      { ...intent('3', minutesAgo(5)), operator: 'bob', account: 'c' }, // neither the account nor the operator
      { ...intent('4', minutesAgo(1)), gateway: 'other' },
    ];
    const ledger = await ledgerWith(records);
    try {
      expect(ids(await ledger.recentPayments(query))).toEqual(['1 success', '2 failed', 'retried -']);
      // Several accounts (a bulk file's), and no operator when no daily limit weighs the operator's payments.
      expect(ids(await ledger.recentPayments({ ...query, accounts: ['a', 'c'], operator: undefined }))).toEqual([
        '2 failed',
        '3 -',
        'retried -',
      ]);
      expect(ids(await ledger.recentPayments({ ...query, accounts: [], operator: undefined }))).toEqual([]);
      // The latest attempt is what is recent: its time, and who made it.
      const [retried] = (await ledger.recentPayments({ ...query, operator: undefined })).filter(
        (payment) => payment.intent.transactionId === 'retried',
      );
      expect(retried?.intent.at).toBe(minutesAgo(30));
    } finally {
      await ledger.close();
    }
  });

  it('an operator is the one who made the latest attempt: a retry by another moves the payment to them', async () => {
    const records = [
      { ...intent('x', minutesAgo(40)), operator: 'ann', account: 'z' },
      outcome('x', 'failed'),
      { ...intent('x', minutesAgo(30)), operator: 'bob', account: 'z' },
      outcome('x', 'success'),
    ];
    expect(ids(await recentIn(records, { ...query, accounts: [], operator: 'ann' }))).toEqual([]);
    expect(ids(await recentIn(records, { ...query, accounts: [], operator: 'bob' }))).toEqual(['x success']);
  });

  it('accounts escaped, not ASCII, or like JSON: each found as written, in a list and in a set alike', async () => {
    const records: JournalRecord[] = [
      { ...intent('quoted', minutesAgo(9)), account: 'a"b' },
      { ...intent('newline', minutesAgo(8)), account: 'a\nb' },
      { ...intent('cyrillic', minutesAgo(7)), account: 'счёт-1' },
      { ...intent('tricky', minutesAgo(6)), account: 'c', voucher: '"account":"a' },
      { ...intent('plain', minutesAgo(4)), account: 'a' },
      { ...intent('other', minutesAgo(3)), account: 'x' },
      outcome('quoted', 'success'),
    ];
    const ledger = await ledgerWith(records);
    const found = async (accounts: string[]) =>
      ids(await ledger.recentPayments({ ...query, accounts, operator: undefined }));
    try {
      expect(await found(['a"b', 'a\nb', 'счёт-1'])).toEqual(['cyrillic -', 'newline -', 'quoted success']);
      expect(await found(['a'])).toEqual(['plain -']);
      // More accounts than one query is sent: asked a slice at a time, each payment once.
      const many = [...Array.from({ length: 10_500 }, (_, n) => `many-${n}`), 'a', 'счёт-1'];
      expect(await found(many)).toEqual(['cyrillic -', 'plain -']);
      expect(await found(['a\\', 'a', 'b', 'счёт'])).toEqual(['plain -']);
    } finally {
      await ledger.close();
    }
  });
});

describe('the look-back against a plain fold of the records', () => {
  /**
   * What the look-back must find, read forward and whole: each transaction of the owner whose
   * latest attempt is since the look-back, to one of the accounts or by that attempt's operator,
   * with its latest word by the ledger's rules (a failure reopened by a later attempt).
   */
  function reference(
    records: readonly JournalRecord[],
    query: { since: Date; accounts: string[]; operator: string | undefined },
  ) {
    const latest = new Map<string, { intent: IntentRecord; state: TransactionState | undefined }>();
    const keyOf = (record: JournalRecord) => `${record.gateway} ${record.agentId} ${record.transactionId}`;
    for (const record of records) {
      const entry = latest.get(keyOf(record));
      if (record.kind === 'intent') {
        const state = entry === undefined || attemptReopens(entry.state) ? undefined : entry.state;
        latest.set(keyOf(record), { intent: record, state });
      } else if (entry !== undefined && replacesOutcome(entry.state, record.view.state))
        entry.state = record.view.state;
    }
    return [...latest.values()]
      .filter(({ intent }) => Date.parse(intent.at) >= query.since.getTime())
      .filter(({ intent }) => intent.gateway === owner.gateway && intent.agentId === owner.agentId)
      .filter(
        ({ intent }) =>
          query.accounts.includes(intent.account) ||
          (query.operator !== undefined && intent.operator === query.operator),
      )
      .map(({ intent, state }) => `${intent.transactionId} ${state ?? '-'}`)
      .sort();
  }

  it('finds the same payments and states on 12 generated ledgers: retries by other operators, other owners', async () => {
    const start = new Date(2026, 10, 24, 15, 0, 0);
    const accounts = ['a', 'b', 'c', 'счёт', 'd"q', 'e'];
    const operators = ['ann', 'bob', 'cy'];
    const states: TransactionState[] = ['success', 'failed', 'pending', 'unknown'];
    const seed = Number(process.env.AGENTPAY_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
    for (let run = 0; run < 12; run++) {
      const random = seededRandom(seed + run);
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
      const made: IntentRecord[] = [];
      const records: JournalRecord[] = [];
      const count = 200 + Math.floor(random() * 300);
      for (let n = 0; n < count; n++) {
        // Forty minutes of ledger, in time order.
        const at = new Date(start.getTime() - 40 * 60_000 + (n / count) * 40 * 60_000).toISOString();
        const roll = random();
        if (roll < 0.45 || made.length === 0) {
          const record = { ...intent(`t${run}-${n}`, at), account: pick(accounts), operator: pick(operators) };
          if (random() < 0.05) record.gateway = 'elsewhere';
          made.push(record);
          records.push(record);
        } else if (roll < 0.85) {
          const target = pick(made);
          records.push({ ...outcome(target.transactionId, pick(states)), gateway: target.gateway });
        } else {
          // The safe retry: the same purchase again, maybe by another operator.
          records.push({ ...pick(made), at, operator: pick(operators) });
        }
      }
      const query = {
        since: new Date(start.getTime() - (5 + Math.floor(random() * 25)) * 60_000),
        accounts: accounts.filter(() => random() < 0.4),
        operator: random() < 0.5 ? pick(operators) : undefined,
      };
      const found = ids(await recentIn(records, { ...owner, ...query }));
      expect(found, `AGENTPAY_TEST_SEED=${seed}, run ${run}`).toEqual(reference(records, query));
    }
  });
});
