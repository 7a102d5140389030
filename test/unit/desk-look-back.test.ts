import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactJournal } from '../../src/ledger/file/compact.js';
import { recentPayments } from '../../src/ledger/file/look-back.js';
import type { RecentPayment } from '../../src/ledger/ledger.js';
import { readRecord } from '../../src/ledger/record-format.js';
import { type IntentRecord, ownerKey, replacesOutcome } from '../../src/ledger/records.js';
import type { TransactionState } from '../../src/protocol/transaction-view.js';
import { minutesAgo, now, yesterday } from '../helpers/desk-clock.js';
import { intent, linesOf, outcome, owner } from '../helpers/journal-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';

describe("the journal's recent payments, read from its end back", () => {
  const journalWith = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-look-back-')), 'journal.jsonl');
    writeFileSync(path, text);
    return path;
  };
  const query = { ...owner, since: new Date(now.getTime() - 60 * 60_000), accounts: ['a'], operator: 'ann' };
  const ids = (payments: RecentPayment[]) => payments.map((p) => `${p.intent.transactionId} ${p.state ?? '-'}`).sort();

  it("finds each transaction's latest attempt since then, with its state by the ledger's rules, and stops at older intents", async () => {
    const old = Array.from({ length: 2000 }, (_, i) => ({ ...intent(`old-${i}`, yesterday), account: 'a' }));
    const journal = journalWith(
      linesOf([
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
        '{"kind":"intent","transactionId":"torn',
      ]).slice(0, -1),
    );
    expect(ids(await recentPayments(journal, query))).toEqual(['1 success', '2 failed', 'retried -']);
    // Several accounts (a bulk file's), and no operator when no daily limit weighs the operator's payments.
    expect(ids(await recentPayments(journal, { ...query, accounts: ['a', 'c'], operator: undefined }))).toEqual([
      '2 failed',
      '3 -',
      'retried -',
    ]);
    expect(ids(await recentPayments(journal, { ...query, accounts: [], operator: undefined }))).toEqual([]);
  });

  it('an account read from the line as bytes: escaped, not ASCII, or in a line of another writer, each found as readRecord reads it', async () => {
    const other = { ...intent('other', minutesAgo(3)), account: 'x' };
    // Another writer's key order (not the journal's own line), and JSON's escapes.
    const foreign = JSON.stringify({
      at: minutesAgo(4),
      kind: 'intent',
      transactionId: 'foreign',
      ...owner,
      service: '101',
      account: 'a',
      amount: '1',
      currency: 'KZT',
      invoiceId: null,
    });
    const journal = journalWith(
      linesOf([
        { ...intent('quoted', minutesAgo(9)), account: 'a"b' },
        { ...intent('newline', minutesAgo(8)), account: 'a\nb' },
        { ...intent('cyrillic', minutesAgo(7)), account: 'счёт-1' },
        { ...intent('tricky', minutesAgo(6)), account: 'c', voucher: '"account":"a' },
        foreign,
        other,
        outcome('quoted', 'success'),
      ]),
    );
    // A list, and a set asked one account at a time (a bulk file's): the same payments.
    const found = async (accounts: string[]) => {
      const listed = await recentPayments(journal, { ...query, accounts, operator: undefined }).then(ids);
      const set = { has: (account: string) => accounts.includes(account), slices: () => [accounts] };
      expect(await recentPayments(journal, { ...query, accounts: set, operator: undefined }).then(ids)).toEqual(listed);
      return listed;
    };
    expect(await found(['a"b', 'a\nb', 'счёт-1'])).toEqual(['cyrillic -', 'newline -', 'quoted success']);
    expect(await found(['a'])).toEqual(['foreign -']);
    expect(await found(['a\\', 'a', 'b', 'счёт'])).toEqual(['foreign -']);
  });

  it("after `ledger compact`, finds today's closed payments in the archive and the open ones in the live files", async () => {
    const journal = journalWith(
      linesOf([
        { ...intent('closed', minutesAgo(30)), operator: 'ann' },
        outcome('closed', 'success'),
        { ...intent('open', minutesAgo(20)), operator: 'ann' },
        { ...intent('yesterday', yesterday), operator: 'ann' },
        outcome('yesterday', 'success'),
      ]),
    );
    await compactJournal(journal);
    writeFileSync(journal, linesOf([{ ...intent('after', minutesAgo(1)), operator: 'ann' }]), { flag: 'a' });
    expect(ids(await recentPayments(journal, query))).toEqual(['after -', 'closed success', 'open -']);
  });

  it('a retry filed in a newer archive file than its failed first attempt is seen as the retry left it', async () => {
    const journal = journalWith(linesOf([{ ...intent('x', minutesAgo(40)), operator: 'ann' }, outcome('x', 'failed')]));
    await compactJournal(journal);
    writeFileSync(journal, linesOf([{ ...intent('x', minutesAgo(30)), operator: 'ann' }, outcome('x', 'success')]), {
      flag: 'a',
    });
    await compactJournal(journal);
    expect(ids(await recentPayments(journal, query))).toEqual(['x success']);
  });
});

describe('the look-back against a plain reading of the whole journal', () => {
  /**
   * What the look-back must find, read forward and whole: after the last intent older than the
   * look-back less the minute of skew (where reading back stops), each transaction's last
   * attempt since the look-back, of the owner, to one of the accounts or by the operator, with
   * the answers after it by the ledger's rules. Damaged lines and a torn last line count for nothing.
   */
  function reference(text: string, query: { since: Date; accounts: string[]; operator: string | undefined }) {
    const records = text
      .split('\n')
      .slice(0, -1)
      .flatMap((line) => {
        try {
          return [readRecord(JSON.parse(line.replace(/\r$/, '')))];
        } catch {
          return [];
        }
      });
    let stop = -1;
    records.forEach((record, index) => {
      if (record.kind === 'intent' && Date.parse(record.at) < query.since.getTime() - 60_000) stop = index;
    });
    const latest = new Map<string, { intent: IntentRecord; answers: TransactionState[] }>();
    for (const record of records.slice(stop + 1)) {
      if (record.kind === 'intent') latest.set(ownerKey(record), { intent: record, answers: [] });
      else latest.get(ownerKey(record))?.answers.push(record.view.state);
    }
    return [...latest.values()]
      .filter(
        ({ intent }) =>
          Date.parse(intent.at) >= query.since.getTime() &&
          intent.gateway === owner.gateway &&
          intent.agentId === owner.agentId,
      )
      .filter(
        ({ intent }) =>
          query.accounts.includes(intent.account) ||
          (query.operator !== undefined && intent.operator === query.operator),
      )
      .map(
        ({ intent, answers }) =>
          `${intent.transactionId} ${answers.reduce<TransactionState | undefined>((state, next) => (replacesOutcome(state, next) ? next : state), undefined) ?? '-'}`,
      )
      .sort();
  }

  it('finds the same payments and states on 24 generated journals: retries by other operators, other owners, damaged and CRLF lines, several read chunks', async () => {
    const now = new Date(2026, 10, 24, 15, 0, 0);
    const accounts = ['a', 'b', 'c', 'счёт', 'd"q', 'e'];
    const operators = ['ann', 'bob', 'cy'];
    const states: TransactionState[] = ['success', 'failed', 'pending', 'unknown'];
    for (let seed = 1; seed <= 24; seed++) {
      const random = seededRandom(seed);
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
      const made: IntentRecord[] = [];
      const lines: string[] = [];
      const count = 600 + Math.floor(random() * 900);
      for (let n = 0; n < count; n++) {
        // Forty minutes of journal, in time order but for up to 20 s of skew.
        const at = new Date(
          now.getTime() - 40 * 60_000 + (n / count) * 40 * 60_000 + (random() - 0.5) * 40_000,
        ).toISOString();
        const roll = random();
        let line: string;
        if (roll < 0.4 || made.length === 0) {
          const record = {
            ...intent(`t${seed}-${n}`, at),
            account: pick(accounts),
            operator: pick(operators),
            voucher: 'x'.repeat(Math.floor(random() * 200)),
          };
          if (random() < 0.05) record.gateway = 'elsewhere';
          made.push(record);
          line = linesOf([record]).trimEnd();
        } else if (roll < 0.8) {
          const target = pick(made);
          line = linesOf([{ ...outcome(target.transactionId, pick(states)), gateway: target.gateway }]).trimEnd();
        } else if (roll < 0.92) {
          // The safe retry: the same purchase again, maybe by another operator.
          const earlier = pick(made);
          line = linesOf([{ ...earlier, at, operator: pick(operators) }]).trimEnd();
        } else line = pick(['{"kind":"intent","transactionId":"broken', 'not json', '{"kind":"outcome"}', '']);
        lines.push(random() < 0.1 ? `${line}\r` : line);
      }
      const text = `${lines.join('\n')}\n${random() < 0.5 ? '{"kind":"intent","torn' : ''}`;
      const journal = join(mkdtempSync(join(tmpdir(), 'agentpay-look-back-ref-')), 'journal.jsonl');
      writeFileSync(journal, text);
      const query = {
        since: new Date(now.getTime() - (5 + Math.floor(random() * 25)) * 60_000),
        accounts: accounts.filter(() => random() < 0.4),
        operator: random() < 0.5 ? pick(operators) : undefined,
      };
      const found = (await recentPayments(journal, { ...owner, ...query }))
        .map((payment) => `${payment.intent.transactionId} ${payment.state ?? '-'}`)
        .sort();
      expect(found, `seed ${seed}`).toEqual(reference(text, query));
    }
  });
});
