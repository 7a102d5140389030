import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCatalogue } from '../../src/commands/buy/run.js';
import { EmptyVoucherListError } from '../../src/errors.js';
import { buy, closeBuyServers, gameCoins, payments, sandbox, specServer, txnId } from '../helpers/buy-run.js';
import { formsOfType } from '../helpers/spec-server.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// The voucher list buy offers and pays from: the happy path, a long list, an empty one.
afterEach(closeBuyServers);

describe('buy: the happy path', () => {
  it('pays the picked voucher with its exact OrderAmount and InvoiceId, after showing what will be sent', async () => {
    const gateway = await sandbox();
    let atConfirm: { stderr: string; payments: number } | undefined;
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }], {
      onAsk: (question, stderr) => {
        if (question.kind === 'confirm') atConfirm = { stderr, payments: payments(gateway.received).length };
      },
    });
    expect(run.error).toBeUndefined();
    // Flags gave service, account and currency: the first question is the voucher.
    expect(run.asked.map((q) => q.kind)).toEqual(['select', 'confirm']);
    expect(run.asked[1]).toMatchObject({ message: 'Pay 2497.00 KZT now?', initial: false });

    // The summary was on screen before the question, and nothing had been paid yet.
    expect(atConfirm?.payments).toBe(0);
    const summary = atConfirm?.stderr ?? '';
    expect(summary).toMatch(/Service\s+101\n/);
    expect(summary).toMatch(/Account\s+7011234567\n/);
    expect(summary).toMatch(/Voucher\s+550 GameCoins\n/);
    expect(summary).toMatch(/Amount\s+2497\.00 KZT/);
    expect(summary).toMatch(/InvoiceId\s+5002\n/);
    expect(summary).toMatch(new RegExp(`TransactionID\\s+${txnId}`));

    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Service')).toBe('101');
    expect(payment?.get('Account')).toBe('7011234567');
    expect(payment?.get('Amount')).toBe('2497.00');
    expect(payment?.get('Currency')).toBe('KZT');
    expect(payment?.get('Extra[0].Name')).toBe('InvoiceId');
    expect(payment?.get('Extra[0].Value')).toBe('5002');
    expect(payment?.get('TransactionID')).toBe(txnId);

    expect(run.stdout).toContain('Payment succeeded');
    expect(run.stdout).toMatch(new RegExp(`TransactionID\\s+${txnId}`));
    expect(run.stdout).toMatch(/RequestID\s+9007199254740993/);
    expect(run.stdout).toMatch(/Amount\s+2497\.00 KZT/);
  });

  it('shows the vouchers in a table that fits 80 columns, long names wrapped inside it', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550 GameCoins/ }, { confirm: true }]);
    const tableLines = run.stderr.split('\n').filter((line) => /^[+|]/.test(line));
    expect(tableLines.length).toBeGreaterThan(6);
    for (const line of tableLines) {
      expect(line.length).toBe(tableLines[0]!.length);
      expect(line.length).toBeLessThanOrEqual(80);
    }
    expect(tableLines.join('\n')).toContain('Legendary');
    expect(tableLines.join('\n')).toContain('season pass');
    // The picker's labels stay on one line each.
    const picker = run.asked[0];
    expect(picker?.kind).toBe('select');
    if (picker?.kind === 'select') {
      expect(picker.filter).toBe(false);
      for (const choice of picker.choices) expect(choice.label.length).toBeLessThanOrEqual(76);
      expect(picker.choices.map((c) => c.label.replace(/\s+/g, ' '))).toContain('#2 550 GameCoins 2497.00 KZT');
    }
  });

  it('asks for service, account and currency when not given (currency defaults to KZT)', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, {}, [
      { input: '101', expect: /Service/ },
      { input: '7011234567', expect: /account/ },
      { input: null, expect: /Currency/ },
      { select: /1200 GameCoins/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.asked[2]).toMatchObject({ kind: 'input', initial: 'KZT' });
    const [payment] = payments(gateway.received);
    expect(payment?.get('Amount')).toBe('4990.50');
    expect(payment?.get('Extra[0].Value')).toBe('5003');
    expect(payment?.get('Currency')).toBe('KZT');
  });

  it('under --sandbox offers the catalogue, with its account and the service currency as defaults', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      {},
      [
        { select: /Global gift card/ },
        { input: null },
        { input: null },
        { select: /Gift card 25 EUR/ },
        { confirm: true },
      ],
      {
        catalogue: await sandboxCatalogue(),
      },
    );
    expect(run.error).toBeUndefined();
    const services = run.asked[0];
    expect(services?.kind === 'select' && services.choices.map((c) => c.value)).toEqual([
      '101',
      '102',
      '201',
      '202',
      expect.any(String),
    ]);
    expect(run.asked[1]).toMatchObject({ initial: '7011234567' });
    expect(run.asked[2]).toMatchObject({ initial: 'USD' });
    const [payment] = payments(gateway.received);
    expect(payment?.get('Service')).toBe('102');
    expect(payment?.get('Currency')).toBe('USD');
    expect(payment?.get('Amount')).toBe('26.575');
    expect(payment?.get('Extra[0].Value')).toBe('7025');
    expect(run.stderr).toMatch(/Service\s+102 \(Global gift card \(USD\)\)/);
  });

  it('--amount starts the list on the voucher that costs exactly that, and warns when none does', async () => {
    const gateway = await sandbox();
    const exact = await buy(gateway.baseUrl, { ...gameCoins, amount: '4990.50' }, [
      { select: /1200 GameCoins/ },
      { confirm: false },
    ]);
    expect(exact.asked[0]).toMatchObject({ kind: 'select', initial: '2' });
    const loose = await buy(gateway.baseUrl, { ...gameCoins, amount: '4990.5' }, [
      { select: /1200 GameCoins/ },
      { confirm: false },
    ]);
    expect(loose.asked[0]).toMatchObject({ kind: 'select', initial: undefined });
    expect(loose.stderr).toContain('no voucher costs exactly 4990.5');
    expect(payments(gateway.received)).toHaveLength(0);
  });
});

describe('buy: a long voucher list', () => {
  it('lets typing filter it, and keeps every label on one line', async () => {
    const vouchers = Array.from({ length: 12 }, (_, i) => ({
      invoiceId: String(9000 + i),
      orderAmount: `${(i + 1) * 100}.00`,
      name:
        i === 10
          ? 'Voucher eleven, with a name far too long to fit in any sensible table column at all'
          : `Voucher ${i + 1}`,
    }));
    const server = await specServer({ vouchers });
    const run = await buy(server.baseUrl, gameCoins, [{ select: /eleven/ }, { confirm: true }], { columns: 80 });
    const picker = run.asked[0];
    expect(picker?.kind === 'select' && picker.filter).toBe(true);
    if (picker?.kind === 'select')
      for (const choice of picker.choices) expect(choice.label.length).toBeLessThanOrEqual(76);
    const [payment] = payments(server.received);
    expect(payment?.get('Extra[0].Value')).toBe('9010');
    expect(payment?.get('Amount')).toBe('1100.00');
  });
});

describe('buy: an empty voucher list', () => {
  const vouchers = [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }];

  it('offers another account or service (the What-now menu), never the amount of a static service', async () => {
    const server = await specServer({ vouchers, emptyListFor: ['7011234567'] });
    const run = await buy(server.baseUrl, gameCoins, [
      { select: /another account/, expect: /What now/ },
      { input: 'player-42', expect: /account/ },
      { select: /550 GameCoins/, expect: /Voucher/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain(
      '✗ the voucher list of service 101 is empty for account 7011234567 now; no payment was sent',
    );
    expect(run.stderr).not.toContain('static service');
    expect(run.asked.map((q) => q.message)).not.toContain('Amount (KZT)');
    expect(formsOfType(server.received, 'AccountCheck').map((f) => f.get('Account'))).toEqual([
      '7011234567',
      'player-42',
    ]);
    const [payment, ...more] = payments(server.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Account')).toBe('player-42');
    expect(payment?.get('Amount')).toBe('2497.00');
    expect(payment?.get('Extra[0].Value')).toBe('5002');
  });

  it('with --amount given still never pays a free amount; quitting ends with nothing sent (exit 2)', async () => {
    const server = await specServer({ vouchers, emptyListFor: ['7011234567'] });
    const run = await buy(server.baseUrl, { ...gameCoins, amount: '2497.00' }, [
      { select: /quit/, expect: /What now/ },
    ]);
    expect(run.error).toBeInstanceOf(EmptyVoucherListError);
    expect((run.error as EmptyVoucherListError).exitCode).toBe(2);
    expect(run.asked.map((q) => q.kind)).toEqual(['select']);
    expect(payments(server.received)).toHaveLength(0);
  });
});
