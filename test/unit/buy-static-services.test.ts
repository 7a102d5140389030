import { afterEach, describe, expect, it } from 'vitest';
import { profileCatalogue } from '../../src/commands/buy/run.js';
import { GatewayRefusedError, UsageError } from '../../src/errors.js';
import { serviceEntries } from '../../src/settings/services.js';
import { buy, closeBuyServers, payments, sandbox, specServer } from '../helpers/buy-run.js';
import { inRun } from '../helpers/in-run.js';
import { formsOfType, noVoucherListRefusal } from '../helpers/spec-server.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// Static services: the sandbox's, and those a profile declares on a gateway that refuses their account check.
afterEach(closeBuyServers);

describe('buy: a static service', () => {
  it('goes straight to the amount, checked by the amount rules, and pays it with no Extra fields', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { service: '201', account: 'player-42', currency: 'KZT' }, [
      { input: '150.50', expect: /Amount/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain('static service');
    const amountQuestion = run.asked[0];
    expect(amountQuestion?.kind).toBe('input');
    const validate = amountQuestion?.kind === 'input' ? amountQuestion.validate : undefined;
    expect(validate?.('2,5')).toMatch(/comma/);
    expect(validate?.('abc')).toMatch(/not a plain decimal/);
    expect(validate?.('1e3')).toMatch(/not a plain decimal/);
    expect(validate?.('-5')).toMatch(/negative/);
    expect(validate?.('0.00')).toMatch(/more than zero/);
    expect(validate?.('150.50')).toBeUndefined();
    expect(run.stderr).toMatch(/Voucher\s+static/);

    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Amount')).toBe('150.50');
    expect(payment?.has('Extra[0].Name')).toBe(false);
    expect(run.stdout).toContain('Payment succeeded');
  });

  it('takes --amount without asking', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { service: '202', account: 'player-42', currency: 'KZT', amount: '1500.00' },
      [{ confirm: true }],
    );
    expect(run.error).toBeUndefined();
    expect(payments(gateway.received)[0]?.get('Amount')).toBe('1500.00');
  });
});

describe('buy: a static service the profile declares, on a gateway that refuses its account check', () => {
  // Unlike the sandbox, this gateway answers the AccountCheck of 601 with a refusal (ResponseStatus 115).
  const gateway = () =>
    specServer({
      vouchers: [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }],
      staticRefusedCheck: ['601'],
    });
  const profile = (entry: unknown) =>
    profileCatalogue(serviceEntries({ '101': 'GameCoins', '601': entry } as Record<string, unknown>, 'profile'));
  const cinema = { name: 'Cinema voucher', kind: 'static', amounts: ['1500.00', '3000.00'] };
  const flags = { service: '601', account: '7011234567', currency: 'KZT' };

  it('with every flag given asks only the yes, and pays exactly 1500.00 with no Extra fields', async () => {
    const server = await gateway();
    const run = await buy(
      server.baseUrl,
      { ...flags, amount: '1500.00' },
      [{ confirm: true, expect: /Pay 1500\.00 KZT now/ }],
      { catalogue: profile(cinema) },
    );
    expect(run.error).toBeUndefined();
    expect(run.stderr).toContain(
      `refused the account check of service 601 (${noVoucherListRefusal.message}, ResponseStatus 115); the profile declares it static`,
    );
    expect(formsOfType(server.received, 'AccountCheck')).toHaveLength(1);
    const [payment, ...more] = payments(server.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Service')).toBe('601');
    expect(payment?.get('Account')).toBe('7011234567');
    expect(payment?.get('Amount')).toBe('1500.00');
    expect([...(payment?.keys() ?? [])].filter((key) => key.startsWith('Extra'))).toEqual([]);
    expect(run.stdout).toContain('Payment succeeded');
  });

  it("offers the profile's services, then its amounts, and pays the amount picked", async () => {
    const server = await gateway();
    const run = await buy(
      server.baseUrl,
      { account: '7011234567', currency: 'KZT' },
      [
        { select: /Cinema voucher/, expect: /Service/ },
        { select: '3000.00', expect: /Amount \(KZT\)/ },
        { confirm: true },
      ],
      {
        catalogue: profile(cinema),
      },
    );
    expect(run.error).toBeUndefined();
    const [services, amounts] = run.asked;
    expect(services?.kind === 'select' && services.choices.map((c) => c.label)).toEqual([
      '101  GameCoins',
      '601  Cinema voucher (static)',
      'another service id…',
    ]);
    expect(amounts?.kind === 'select' && amounts.choices.map((c) => c.value)).toEqual(['1500.00', '3000.00']);
    expect(payments(server.received).map((form) => form.get('Amount'))).toEqual(['3000.00']);
  });

  it('refuses an --amount not listed as written (1500 is not 1500.00): no Payment', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, { ...flags, amount: '1500' }, [], { catalogue: profile(cinema) });
    expect(run.error).toBeInstanceOf(UsageError);
    expect((run.error as UsageError).message).toBe(
      '--amount 1500 is not one of the amounts the profile lists for service 601; nothing was paid',
    );
    expect((run.error as UsageError).hint).toBe('give one of them exactly as written: 1500.00, 3000.00');
    expect(payments(server.received)).toHaveLength(0);
  });

  it('in Russian: the warning and the refusal of an unlisted --amount', async () => {
    const server = await gateway();
    await inRun('ru', async () => {
      const run = await buy(server.baseUrl, { ...flags, amount: '1500' }, [], { catalogue: profile(cinema) });
      expect(run.stderr).toContain(
        `шлюз отказал в проверке счёта для услуги 601 (${noVoucherListRefusal.message}, ResponseStatus 115); в профиле она объявлена статической, поэтому оплачивается суммой`,
      );
      expect((run.error as UsageError).message).toBe(
        '--amount 1500 нет среди сумм, указанных в профиле для услуги 601; ничего не оплачено',
      );
      expect((run.error as UsageError).hint).toBe('укажите одну из них точно так, как она записана: 1500.00, 3000.00');
    });
  });

  it('without listed amounts asks for one, checked by the amount rules', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, flags, [{ input: '2000.50', expect: /Amount \(KZT\)/ }, { confirm: true }], {
      catalogue: profile({ kind: 'static' }),
    });
    expect(run.error).toBeUndefined();
    expect(payments(server.received).map((form) => form.get('Amount'))).toEqual(['2000.50']);
  });

  it('a service the profile does not declare static: the refusal stays a refusal, nothing paid', async () => {
    const server = await gateway();
    const run = await buy(server.baseUrl, { ...flags, amount: '1500.00' }, [{ select: /quit/, expect: /What now/ }], {
      catalogue: profile('Cinema voucher'),
    });
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect(run.stderr).toContain(noVoucherListRefusal.message);
    expect(payments(server.received)).toHaveLength(0);
  });

  it("declared static, yet the gateway's check lists vouchers: the gateway's list wins, paid by voucher", async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '5002', orderAmount: '2497.00', name: '550 GameCoins' }],
    });
    const run = await buy(server.baseUrl, flags, [{ select: /550 GameCoins/ }, { confirm: true }], {
      catalogue: profile(cinema),
    });
    expect(run.error).toBeUndefined();
    expect(payments(server.received)[0]?.get('Extra[0].Value')).toBe('5002');
  });
});
