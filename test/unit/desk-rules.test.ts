import { describe, expect, it } from 'vitest';
import type { Intent, RecentPayment } from '../../src/ledger/ledger.js';
import type { IntentRecord } from '../../src/ledger/records.js';
import { addDecimals, compareDecimals } from '../../src/protocol/money.js';
import type { TransactionState } from '../../src/protocol/transaction-view.js';
import { breachText, duplicatesOf, limitBreaches, lookBackOf, startOfDay } from '../../src/purchase/desk-rules.js';
import { resolveDesk } from '../../src/settings/desk.js';
import { minutesAgo, now, yesterday } from '../helpers/desk-clock.js';
import { intent, owner } from '../helpers/journal-lines.js';
import { seededRandom } from '../helpers/seeded-random.js';

function paid(
  id: string,
  fields: Partial<IntentRecord>,
  state: TransactionState | undefined = 'success',
): RecentPayment {
  return { intent: { ...intent(id, minutesAgo(5)), operator: 'ann', ...fields }, state };
}

const purchase: Intent = {
  ...owner,
  transactionId: 'new',
  service: '101',
  account: 'a',
  amount: '499.00',
  currency: 'KZT',
  invoiceId: null,
};

/** The desk's settings as resolve.ts makes them, from a profile and flags. */
function desk(profile: Record<string, unknown>, flags: Record<string, string> = {}, sandbox = false) {
  return resolveDesk({
    inputs: { flags, env: {}, profile },
    sandbox,
    profileName: { value: 'desk', source: 'flag' },
    baseUrl: undefined,
    profiles: { desk: profile },
  });
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
    expect(desk({ maxAmount: { KZT: '50000.00' } }, { maxAmount: '90000' }).limit('maxAmount', 'KZT')).toEqual({
      amount: '50000.00',
      currency: 'KZT',
      setBy: { profile: 'desk' },
    });
    expect(desk({ maxAmount: { KZT: '50000.00' } }, { maxAmount: 'KZT=100' }).limit('maxAmount', 'KZT')).toEqual({
      amount: '100',
      currency: 'KZT',
      setBy: { flag: '--max-amount' },
    });
    expect(desk({}, { maxAmount: '7' }).limit('maxAmount', 'USD')).toEqual({
      amount: '7',
      currency: 'USD',
      setBy: { flag: '--max-amount' },
    });
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
    expect(breachText(breach!)).toBe(
      '499.51 KZT would take ann\'s payments today from 500.50 to 1000.01 KZT, over the daily limit of 1000.00 KZT (profile "desk")',
    );
  });

  it("the account's day counts every operator's payments to it", () => {
    const rules = desk({ accountDailyLimit: { KZT: '500' } });
    const payments = [paid('1', { amount: '300', operator: 'bob' }), paid('2', { amount: '300', account: 'other' })];
    const [breach] = limitBreaches(rules, { ...purchase, amount: '201' }, 'ann', payments, now);
    expect(breach).toMatchObject({ kind: 'accountDailyLimit', sumSoFar: '300', whose: 'a' });
  });
});

describe('the desk settings', () => {
  const live = {
    baseUrl: 'http://pay.example:80/api/',
    agentId: '5',
    live: true,
    maxAmount: { KZT: '100' },
    duplicateWindow: '1h',
  };
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
    expect(desk({ duplicateWindow: '30s' }, { duplicateWindow: '10s' }).duplicateWindowMs).toMatchObject({
      value: 30_000,
      source: 'profile',
    });
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
      duplicatesOf(
        { ...purchase, invoiceId: '5001' },
        [paid('7', { invoiceId: '5001' }), paid('8', { invoiceId: '5002' })],
        since,
      ).map((p) => p.intent.transactionId),
    ).toEqual(['7']);
  });
});

describe('what the rules read of the ledger', () => {
  const tenMinutes = 600_000;
  it('the duplicate window alone, without the operator, when no daily limit is set; nothing when neither rule holds', () => {
    expect(lookBackOf(desk({}), 'ann', ['KZT'], tenMinutes, now)).toEqual({
      since: new Date(now.getTime() - tenMinutes),
      operator: undefined,
    });
    expect(lookBackOf(desk({}), 'ann', ['KZT'], 0, now)).toBeUndefined();
  });

  it("the whole day with a daily limit in one of the currencies; the operator's payments only for the operator's limit", () => {
    const accountLimit = desk({ accountDailyLimit: { USD: '100' } });
    expect(lookBackOf(accountLimit, 'ann', ['KZT'], tenMinutes, now)?.since).toEqual(
      new Date(now.getTime() - tenMinutes),
    );
    expect(lookBackOf(accountLimit, 'ann', ['KZT', 'USD'], 0, now)).toEqual({
      since: startOfDay(now),
      operator: undefined,
    });
    expect(lookBackOf(desk({ dailyLimit: { KZT: '100' } }), 'ann', ['KZT'], 0, now)).toEqual({
      since: startOfDay(now),
      operator: 'ann',
    });
    // A window reaching past midnight is longer than the day.
    const early = new Date(2026, 10, 23, 0, 5, 0);
    expect(lookBackOf(desk({ dailyLimit: { KZT: '100' } }), 'ann', ['KZT'], tenMinutes, early)?.since).toEqual(
      new Date(early.getTime() - tenMinutes),
    );
  });
});
