import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PaymentsByAccount } from '../../src/commands/pay/bulk/payments-by-account.js';
import type { RecentPayment } from '../../src/ledger/ledger.js';

const paymentTo = (account: string, transactionId: string): RecentPayment => ({
  intent: {
    kind: 'intent',
    transactionId,
    gateway: 'http://127.0.0.1:1',
    agentId: '1',
    service: '202',
    account,
    amount: '1500.00',
    currency: 'KZT',
    invoiceId: null,
    at: '2026-11-27T10:00:00.000Z',
    operator: 'desk-1',
  },
  state: 'success',
});

describe("the ledger's recent payments by account", () => {
  it("gives each account's payments in the ledger's order, and none to any other", () => {
    const accounts = ['7001', '7002', 'счёт 7', '7001', '', '7002', '7001'];
    const payments = accounts.map((account, index) => paymentTo(account, String(index + 1)));
    const byAccount = new PaymentsByAccount(payments);
    const ids = (account: string) => byAccount.of(account).map((payment) => payment.intent.transactionId);
    expect(ids('7001')).toEqual(['1', '4', '7']);
    expect(ids('7002')).toEqual(['2', '6']);
    expect(ids('счёт 7')).toEqual(['3']);
    expect(ids('')).toEqual(['5']);
    for (const other of ['700', '70011', '7003', 'счёт', ' 7001']) expect(ids(other)).toEqual([]);
    expect(new PaymentsByAccount([]).of('7001')).toEqual([]);
  });

  it('holds thousands of accounts', () => {
    const payments = Array.from({ length: 20_000 }, (_, i) => paymentTo(`${7_000_000_000 + (i % 9_000)}`, `${i}`));
    const byAccount = new PaymentsByAccount(payments);
    expect(byAccount.of('7000000000').map((payment) => payment.intent.transactionId)).toEqual(['0', '9000', '18000']);
    expect(byAccount.of('7000008999')).toHaveLength(2);
    expect(byAccount.of('7000009000')).toHaveLength(0);
  });

  /**
   * A file asks once a row, with an account text V8 has not seen. Node 26's V8 copies such a
   * string into the old generation when a Map or Set is asked for it: a Map here left ~32 bytes a
   * row there (a 1,000,000-row plan peaked ~70 MB higher). Measured in a process of its own, old
   * space in use before and after with no collection asked for, less what reading the texts
   * alone leaves; it fails with a Map on Node 26
   * (Node 20-24 copy nothing either way). The class is the built one (dist/), as the CLI runs it.
   */
  it('leaves nothing a row in the old generation', () => {
    const built = fileURLToPath(new URL('../../dist/commands/pay/bulk/payments-by-account.js', import.meta.url));
    const child = `
      const { getHeapSpaceStatistics } = await import('node:v8');
      const { PaymentsByAccount } = await import(process.argv[1]);
      const lookups = 100000;
      const payment = (account) => ({ intent: { account }, state: 'success' });
      const byAccount = new PaymentsByAccount(Array.from({ length: 50 }, (_, i) => payment('800000' + i.toFixed(0))));
      // The rows' accounts as a file gives them: each a new string, read out of bytes, and each
      // asked once (a text V8 has copied once is not copied again).
      const text = Buffer.from(Array.from({ length: 3 * lookups }, (_, i) => (7000000000 + i).toFixed(0)).join(''));
      const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
      // Old space gained a lookup, less what the loop gains reading the texts alone (~5 bytes).
      const gained = (first, ask) => {
        let found = 0;
        const before = oldSpace();
        for (let i = first; i < first + lookups; i++) found += ask(text.toString('latin1', i * 10, i * 10 + 10));
        return [(oldSpace() - before) / lookups, found];
      };
      // A full collection inside a loop would skew one pair: the least of three pairs is kept,
      // each on accounts of its own.
      const pairs = [0, 1, 2].map((pair) => {
        const [alone] = gained(pair * lookups, (account) => account.length);
        const [asked, found] = gained(pair * lookups, (account) => byAccount.of(account).length);
        return { perLookup: asked - alone, found };
      });
      console.log(JSON.stringify(pairs.reduce((least, pair) => (pair.perLookup < least.perLookup ? pair : least))));
    `;
    const { perLookup, found } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', child, built], { encoding: 'utf8' }),
    ) as { perLookup: number; found: number };
    expect(found).toBe(0);
    expect(perLookup).toBeLessThan(8);
  });
});
