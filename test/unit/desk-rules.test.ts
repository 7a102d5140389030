import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactJournal } from '../../src/ledger/file/compact.js';
import { recentPayments } from '../../src/ledger/file/look-back.js';
import type { Intent, RecentPayment } from '../../src/ledger/ledger.js';
import { readRecord } from '../../src/ledger/record-format.js';
import { type IntentRecord, ownerKey, replacesOutcome } from '../../src/ledger/records.js';
import { addDecimals, compareDecimals } from '../../src/protocol/money.js';
import type { TransactionState } from '../../src/protocol/transaction-view.js';
import { breachText, duplicatesOf, limitBreaches, lookBackOf, startOfDay } from '../../src/purchase/desk-rules.js';
import { resolveDesk } from '../../src/settings/desk.js';
import { intent, linesOf, outcome, owner } from '../helpers/journal-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';

const now = new Date(2026, 10, 23, 15, 0, 0);
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const yesterday = new Date(2026, 10, 22, 23, 0, 0).toISOString();

function paid(id: string, fields: Partial<IntentRecord>, state: TransactionState | undefined = 'success'): RecentPayment {
  return { intent: { ...intent(id, minutesAgo(5)), operator: 'ann', ...fields }, state };
}

const purchase: Intent = { ...owner, transactionId: 'new', service: '101', account: 'a', amount: '499.00', currency: 'KZT', invoiceId: null };

/** The desk's settings as resolve.ts makes them, from a profile and flags. */
function desk(profile: Record<string, unknown>, flags: Record<string, string> = {}, sandbox = false) {
  return resolveDesk({ inputs: { flags, env: {}, profile }, sandbox, profileName: { value: 'desk', source: 'flag' }, baseUrl: undefined, profiles: { desk: profile } });
}

describe('exact decimals for sums', () => {
  it('adds and compares without a JS number', () => {
    expect(addDecimals('0', '1500', '0.50', '99999999999999999999.99')).toBe('100000000000000001500.49');
    expect(addDecimals('0')).toBe('0');
    expect(compareDecimals('50000.00', '50000')).toBe(0);
    expect(compareDecimals('50000.01', '50000')).toBe(1);
    expect(compareDecimals('9', '10.5')).toBe(-1);
  });

  it('sums 3,000 generated lists of plain decimals as digit-by-digit column addition does', () => {
    const random = seededRandom(16);
    const digits = (count: number) => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
    const decimal = () => {
      const whole = String(BigInt(digits(1 + Math.floor(random() * 22))));
      const scale = Math.floor(random() * 4);
      return scale === 0 ? whole : `${whole}.${digits(scale)}`;
    };
    // Column addition on the texts, right to left, with the fractions padded to one length.
    const columnSum = (amounts: string[]) => {
      const scale = Math.max(0, ...amounts.map((amount) => (amount.split('.')[1] ?? '').length));
      const padded = amounts.map((amount) => {
        const [whole, fraction = ''] = amount.split('.');
        return `${whole}${fraction.padEnd(scale, '0')}`;
      });
      const width = Math.max(...padded.map((text) => text.length));
      let carry = 0;
      let out = '';
      for (let column = 1; column <= width; column++) {
        let total = carry;
        for (const text of padded) total += Number(text[text.length - column] ?? '0');
        out = String(total % 10) + out;
        carry = Math.floor(total / 10);
      }
      const all = `${carry > 0 ? carry : ''}${out}`.replace(/^0+(?=\d)/, '').padStart(scale + 1, '0');
      return scale === 0 ? all : `${all.slice(0, -scale)}.${all.slice(-scale)}`;
    };
    for (let i = 0; i < 3000; i++) {
      const amounts = Array.from({ length: 1 + Math.floor(random() * 4) }, decimal);
      expect(addDecimals(...amounts), amounts.join(' + ')).toBe(columnSum(amounts));
    }
  });
});

describe('limits', () => {
  it('one payment over maxAmount, to the last digit; at it is allowed', () => {
    const rules = desk({ maxAmount: { KZT: '50000.00' } });
    expect(limitBreaches(rules, { ...purchase, amount: '50000.00' }, 'ann', [], now)).toEqual([]);
    const [breach] = limitBreaches(rules, { ...purchase, amount: '50000.01' }, 'ann', [], now);
    expect(breachText(breach!)).toBe('50000.01 KZT is over the limit for one payment of 50000.00 KZT (profile "desk")');
    expect(limitBreaches(rules, { ...purchase, amount: '60000', currency: 'USD' }, 'ann', [], now)).toEqual([]);
  });

  it("a flag lowers the profile's limit for a run and never raises it; a bare amount holds for any currency", () => {
    expect(desk({ maxAmount: { KZT: '50000.00' } }, { maxAmount: '90000' }).limit('maxAmount', 'KZT')).toEqual({ amount: '50000.00', currency: 'KZT', setBy: { profile: 'desk' } });
    expect(desk({ maxAmount: { KZT: '50000.00' } }, { maxAmount: 'KZT=100' }).limit('maxAmount', 'KZT')).toEqual({
      amount: '100',
      currency: 'KZT',
      setBy: { flag: '--max-amount' },
    });
    expect(desk({}, { maxAmount: '7' }).limit('maxAmount', 'USD')).toEqual({ amount: '7', currency: 'USD', setBy: { flag: '--max-amount' } });
    // The profile describes a real gateway: under --sandbox only the flag holds.
    expect(desk({ maxAmount: { KZT: '5' } }, {}, true).limit('maxAmount', 'KZT')).toBeUndefined();
  });

  it("the operator's day: success, in progress, unknown and unanswered count; failed, other days, currencies, operators and the same TransactionID do not", () => {
    const rules = desk({ dailyLimit: { KZT: '1000.00' } });
    const payments = [
      paid('1', { amount: '200' }, 'success'),
      paid('2', { amount: '100.50' }, 'pending'),
      paid('3', { amount: '100' }, 'unknown'),
      paid('4', { amount: '100' }, undefined),
      paid('5', { amount: '9000' }, 'failed'),
      paid('6', { amount: '9000', at: yesterday }),
      paid('7', { amount: '9000', currency: 'USD' }),
      paid('8', { amount: '9000', operator: 'bob' }),
      paid('new', { amount: '9000' }, 'unknown'),
    ];
    expect(limitBreaches(rules, { ...purchase, amount: '499.50' }, 'ann', payments, now)).toEqual([]);
    const [breach] = limitBreaches(rules, { ...purchase, amount: '499.51' }, 'ann', payments, now);
    expect(breachText(breach!)).toBe('499.51 KZT would take ann\'s payments today from 500.50 to 1000.01 KZT, over the daily limit of 1000.00 KZT (profile "desk")');
  });

  it("the account's day counts every operator's payments to it", () => {
    const rules = desk({ accountDailyLimit: { KZT: '500' } });
    const payments = [paid('1', { amount: '300', operator: 'bob' }), paid('2', { amount: '300', account: 'other' })];
    const [breach] = limitBreaches(rules, { ...purchase, amount: '201' }, 'ann', payments, now);
    expect(breach).toMatchObject({ kind: 'accountDailyLimit', sumSoFar: '300', whose: 'a' });
  });
});

describe('the desk settings', () => {
  const live = { baseUrl: 'http://pay.example:80/api/', agentId: '5', live: true, maxAmount: { KZT: '100' }, duplicateWindow: '1h' };
  const fromEnv = (url: string) =>
    resolveDesk({
      inputs: { flags: {}, env: {}, profile: { baseUrl: 'http://test.example' } },
      sandbox: false,
      profileName: { value: 'default', source: 'default' },
      baseUrl: { value: url, source: 'env', origin: 'AGENTPAY_BASE_URL' },
      profiles: { default: { baseUrl: 'http://test.example' }, prod: live },
    });

  it("a base URL from the environment that is a live profile's, however spelled, is live and brings that profile's rules", () => {
    for (const url of ['http://pay.example/api', 'http://PAY.example:80/api/', 'http://pay.example/x/../api/']) {
      const desk = fromEnv(url);
      expect(desk.live).toEqual({ profile: 'prod', chosenBy: 'AGENTPAY_BASE_URL' });
      expect(desk.limit('maxAmount', 'KZT')).toEqual({ amount: '100', currency: 'KZT', setBy: { profile: 'prod' } });
      expect(desk.duplicateWindowMs.value).toBe(3_600_000);
    }
    expect(fromEnv('http://pay.example/other').live).toBeUndefined();
  });

  it('the duplicate window: a flag lengthens it, never shortens it; the profile may', () => {
    expect(desk({}, { duplicateWindow: '0' }).duplicateWindowMs.value).toBe(600_000);
    expect(desk({}, { duplicateWindow: '1h' }).duplicateWindowMs).toMatchObject({ value: 3_600_000, source: 'flag' });
    expect(desk({ duplicateWindow: '30s' }, { duplicateWindow: '10s' }).duplicateWindowMs).toMatchObject({ value: 30_000, source: 'profile' });
    expect(desk({ duplicateWindow: 0 }).duplicateWindowMs.value).toBe(0);
  });
});

describe('duplicates', () => {
  const since = new Date(now.getTime() - 10 * 60_000);
  it('the same service, account, amount (1500 = 1500.00) and InvoiceId within the window, not failed, not the same TransactionID', () => {
    const same = paid('1', { amount: '499' });
    const found = duplicatesOf(
      purchase,
      [
        same,
        paid('2', {}, 'failed'),
        paid('3', { at: minutesAgo(11) }),
        paid('4', { service: '102' }),
        paid('5', { invoiceId: '5001' }),
        paid('6', { amount: '499.01' }),
        paid('new', {}),
      ],
      since,
    );
    expect(found).toEqual([same]);
    expect(
      duplicatesOf({ ...purchase, invoiceId: '5001' }, [paid('7', { invoiceId: '5001' }), paid('8', { invoiceId: '5002' })], since).map((p) => p.intent.transactionId),
    ).toEqual(['7']);
  });
});

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
    expect(ids(await recentPayments(journal, { ...query, accounts: ['a', 'c'], operator: undefined }))).toEqual(['2 failed', '3 -', 'retried -']);
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
    const found = (accounts: string[]) => recentPayments(journal, { ...query, accounts, operator: undefined }).then(ids);
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
    writeFileSync(journal, linesOf([{ ...intent('x', minutesAgo(30)), operator: 'ann' }, outcome('x', 'success')]), { flag: 'a' });
    await compactJournal(journal);
    expect(ids(await recentPayments(journal, query))).toEqual(['x success']);
  });
});

describe('what the rules read of the ledger', () => {
  const tenMinutes = 600_000;
  it('the duplicate window alone, without the operator, when no daily limit is set; nothing when neither rule holds', () => {
    expect(lookBackOf(desk({}), 'ann', ['KZT'], tenMinutes, now)).toEqual({ since: new Date(now.getTime() - tenMinutes), operator: undefined });
    expect(lookBackOf(desk({}), 'ann', ['KZT'], 0, now)).toBeUndefined();
  });

  it("the whole day with a daily limit in one of the currencies; the operator's payments only for the operator's limit", () => {
    const accountLimit = desk({ accountDailyLimit: { USD: '100' } });
    expect(lookBackOf(accountLimit, 'ann', ['KZT'], tenMinutes, now)?.since).toEqual(new Date(now.getTime() - tenMinutes));
    expect(lookBackOf(accountLimit, 'ann', ['KZT', 'USD'], 0, now)).toEqual({ since: startOfDay(now), operator: undefined });
    expect(lookBackOf(desk({ dailyLimit: { KZT: '100' } }), 'ann', ['KZT'], 0, now)).toEqual({ since: startOfDay(now), operator: 'ann' });
    // A window reaching past midnight is longer than the day.
    const early = new Date(2026, 10, 23, 0, 5, 0);
    expect(lookBackOf(desk({ dailyLimit: { KZT: '100' } }), 'ann', ['KZT'], tenMinutes, early)?.since).toEqual(new Date(early.getTime() - tenMinutes));
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
      .filter(({ intent }) => Date.parse(intent.at) >= query.since.getTime() && intent.gateway === owner.gateway && intent.agentId === owner.agentId)
      .filter(({ intent }) => query.accounts.includes(intent.account) || (query.operator !== undefined && intent.operator === query.operator))
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
        const at = new Date(now.getTime() - 40 * 60_000 + (n / count) * 40 * 60_000 + (random() - 0.5) * 40_000).toISOString();
        const roll = random();
        let line: string;
        if (roll < 0.4 || made.length === 0) {
          const record = { ...intent(`t${seed}-${n}`, at), account: pick(accounts), operator: pick(operators), voucher: 'x'.repeat(Math.floor(random() * 200)) };
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
      const found = (await recentPayments(journal, { ...owner, ...query })).map((payment) => `${payment.intent.transactionId} ${payment.state ?? '-'}`).sort();
      expect(found, `seed ${seed}`).toEqual(reference(text, query));
    }
  });
});
