import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import { buy, closeBuyServers, gameCoins, payments, sandbox, specServer } from '../helpers/buy-run.js';
import type { AskedQuestion } from '../helpers/scripted-prompter.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// The exchange rate in the summary shown before the yes.
afterEach(closeBuyServers);

describe('buy: foreign exchange is shown before the yes', () => {
  const summaryAtConfirm = () => {
    const seen: { stderr?: string } = {};
    return {
      seen,
      onAsk: (question: AskedQuestion, stderr: string) => void (question.kind === 'confirm' && (seen.stderr = stderr)),
    };
  };

  it('the sandbox gift card (USD at 0.921): the rate and the currency paid in, in the summary', async () => {
    const gateway = await sandbox();
    const { seen, onAsk } = summaryAtConfirm();
    const run = await buy(
      gateway.baseUrl,
      { service: '102', account: 'player-42', currency: 'USD' },
      [{ select: /Gift card 10 EUR/ }, { confirm: false }],
      { onAsk },
    );
    expect(run.error).toBeInstanceOf(CancelledError);
    // The sandbox's AccountCheck has no ServiceCurrency (spec 2.3 lists it for Payment and Status).
    expect(seen.stderr).toMatch(
      /Amount +10\.630 USD \(the OrderAmount, exactly\)\n +Exchange rate +0\.921: paid in USD, crediting currency not given\n/,
    );
    expect(payments(gateway.received)).toHaveLength(0);
  });

  it('a gateway that credits in another currency at 1.00: the crediting currency in the summary', async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '9001', orderAmount: '5000.00', name: 'Gift card 10 EUR' }],
      exchangeRate: '1.00',
      serviceCurrency: 'EUR',
    });
    const { seen, onAsk } = summaryAtConfirm();
    const run = await buy(server.baseUrl, gameCoins, [{ select: /Gift card/ }, { confirm: true }], { onAsk });
    expect(run.error).toBeUndefined();
    expect(seen.stderr).toContain('Exchange rate  1.00: paid in KZT, credited in EUR');
    expect(payments(server.received)).toHaveLength(1);
  });

  it('a rate written 1.0 in the same currency is no exchange: no line', async () => {
    const server = await specServer({
      vouchers: [{ invoiceId: '9001', orderAmount: '5000.00', name: 'Voucher' }],
      exchangeRate: '1.0',
      serviceCurrency: 'KZT',
    });
    const { seen, onAsk } = summaryAtConfirm();
    await buy(server.baseUrl, gameCoins, [{ select: /Voucher/ }, { confirm: false }], { onAsk });
    expect(seen.stderr).toContain('About to pay');
    expect(seen.stderr).not.toContain('Exchange rate');
  });
});
