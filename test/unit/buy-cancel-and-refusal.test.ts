import { afterEach, describe, expect, it, vi } from 'vitest';
import { CancelledError, GatewayRefusedError } from '../../src/errors.js';
import { buy, closeBuyServers, gameCoins, payments, sandbox, specServer, startBuy } from '../helpers/buy-run.js';
import type { ScriptedAnswer } from '../helpers/scripted-prompter.js';
import { formsOfType } from '../helpers/spec-server.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// Before any Payment: cancelling at each prompt, and a refused account check.
afterEach(closeBuyServers);

describe('buy: cancelling before the confirmation sends nothing', () => {
  const steps: { step: string; script: ScriptedAnswer[] }[] = [
    { step: 'service', script: [{ cancel: 'input' }] },
    { step: 'account', script: [{ input: '101' }, { cancel: 'input' }] },
    { step: 'currency', script: [{ input: '101' }, { input: '7011234567' }, { cancel: 'input' }] },
    { step: 'voucher', script: [{ input: '101' }, { input: '7011234567' }, { input: null }, { cancel: 'select' }] },
    {
      step: 'confirmation',
      script: [{ input: '101' }, { input: '7011234567' }, { input: null }, { select: /550/ }, { cancel: 'confirm' }],
    },
  ];
  it.each(steps)(
    'Ctrl+C or Esc at the $step prompt: CancelledError (exit 130), no Payment',
    async ({ step, script }) => {
      const gateway = await sandbox();
      const run = await buy(gateway.baseUrl, {}, script);
      expect(run.error).toBeInstanceOf(CancelledError);
      expect((run.error as CancelledError).exitCode).toBe(130);
      expect(payments(gateway.received)).toHaveLength(0);
      // Cancelling at the voucher or the confirmation happens after the account check.
      const accountChecks = gateway.received.filter((form) => form.get('RequestType') === 'AccountCheck');
      expect(accountChecks).toHaveLength(['voucher', 'confirmation'].includes(step) ? 1 : 0);
    },
  );

  it('answering No (or Enter) at the confirmation pays nothing', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, gameCoins, [{ select: /550/ }, { confirm: false }]);
    expect(run.error).toBeInstanceOf(CancelledError);
    expect((run.error as Error).message).toContain('nothing was paid');
    expect(payments(gateway.received)).toHaveLength(0);
  });

  it('Ctrl+C while the account check is out: CancelledError, no Payment', async () => {
    const server = await specServer({ hold: ['AccountCheck'] });
    const run = startBuy(server.baseUrl, gameCoins, []);
    await vi.waitFor(() => expect(formsOfType(server.received, 'AccountCheck')).toHaveLength(1));
    run.abort();
    const { error } = await run.done;
    expect(error).toBeInstanceOf(CancelledError);
    expect(payments(server.received)).toHaveLength(0);
  });
});

describe('buy: a refused account check', () => {
  it('is shown plainly and offers another account, then goes on', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, account: '0000000000' }, [
      { select: /another account/, expect: /What now/ },
      { input: '7011234567' },
      { select: /550/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/refused.*account 0000000000 is refused by the provider \(ResponseStatus 22\)/);
    expect(formsOfType(gateway.received, 'AccountCheck').map((f) => f.get('Account'))).toEqual([
      '0000000000',
      '7011234567',
    ]);
    const [payment, ...more] = payments(gateway.received);
    expect(more).toHaveLength(0);
    expect(payment?.get('Account')).toBe('7011234567');
  });

  it('offers another service after an unknown one (asking its currency again)', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, service: '999' }, [
      { select: /another service/ },
      { input: '101' },
      { input: null, expect: /Currency/ },
      { select: /100 GameCoins/ },
      { confirm: true },
    ]);
    expect(run.error).toBeUndefined();
    expect(run.stderr).toMatch(/unknown service "999" \(ResponseStatus 21\)/);
    expect(payments(gateway.received)[0]?.get('Extra[0].Value')).toBe('5001');
  });

  it('quitting there ends with the refusal (exit 1) and no Payment', async () => {
    const gateway = await sandbox();
    const run = await buy(gateway.baseUrl, { ...gameCoins, account: '0000000000' }, [{ select: /quit/ }]);
    expect(run.error).toBeInstanceOf(GatewayRefusedError);
    expect((run.error as GatewayRefusedError).exitCode).toBe(1);
    expect(payments(gateway.received)).toHaveLength(0);
  });
});
