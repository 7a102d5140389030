import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import type { Intent } from '../../src/ledger/ledger.js';
import { limitBreaches } from '../../src/purchase/desk-rules.js';
import { resolveSettings } from '../../src/settings/resolve.js';
import { buy, closeBuyServers, gameCoins, payments, sandbox, txnId } from '../helpers/buy-run.js';
import { inRun } from '../helpers/in-run.js';

// The buy flow, scripted, against a gateway on 127.0.0.1 (test/helpers/buy-run.ts).
// A voucher over the desk limit for one payment, in English and Russian.
afterEach(closeBuyServers);

describe('buy: a voucher over the desk limit for one payment', () => {
  /** The desk's maxAmount of KZT 2500.00 as settings resolve it, and its breach as the desk rules find it. */
  async function limited() {
    const home = mkdtempSync(join(tmpdir(), 'agentpay-buy-limit-'));
    const settings = await resolveSettings(
      { sandbox: true, maxAmount: 'KZT=2500.00' },
      { XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') },
    );
    const limit = (currency: string) => settings.desk.limit('maxAmount', currency);
    return {
      maxAmount: (currency: string) => limit(currency)?.amount,
      deskFindings: async (input: { amount: string; currency?: string | undefined }) => {
        // Only the amount and currency matter to the limit for one payment; no earlier payments.
        const intent = {
          amount: input.amount,
          currency: input.currency ?? 'KZT',
          account: gameCoins.account,
          transactionId: txnId,
          at: new Date().toISOString(),
        };
        return {
          breaches: limitBreaches(settings.desk, intent as unknown as Intent, 'desk', [], new Date()),
          duplicates: [],
        };
      },
    };
  }

  it('is marked in the list, and choosing it says why in one line and returns to the list', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      gameCoins,
      [{ select: /1200 GameCoins/ }, { select: /550 GameCoins/ }, { confirm: true }],
      await limited(),
    );
    expect(run.error).toBeUndefined();
    const selects = run.asked.flatMap((question) => (question.kind === 'select' ? [question] : []));
    const labels = selects[0]!.choices.map((choice) => choice.label);
    expect(
      labels.filter((label) => label.endsWith('(over the limit)')).map((label) => label.split(/\s{2,}/)[1]),
    ).toEqual(['1200 GameCoins', expect.stringMatching(/^2500 GameCoins/)]);
    expect(labels.find((label) => label.includes('550 GameCoins'))).not.toContain('over the limit');
    expect(selects).toHaveLength(2);
    expect(run.stderr.split('\n').filter((line) => line.includes('--over-limit'))).toHaveLength(1);
    expect(run.stderr).toMatch(/pick another voucher, or run buy again with --over-limit/);
    expect(payments(gateway.received).map((form) => form.get('Amount'))).toEqual(['2497.00']);
  });

  it('in Russian too', async () => {
    await inRun('ru', async () => {
      const gateway = await sandbox();
      const run = await buy(
        gateway.baseUrl,
        gameCoins,
        [{ select: /1200 GameCoins/ }, { cancel: 'select' }],
        await limited(),
      );
      expect(run.error).toBeInstanceOf(CancelledError);
      const [first] = run.asked.flatMap((question) => (question.kind === 'select' ? [question] : []));
      expect(first!.choices.filter((choice) => choice.label.endsWith('(сверх лимита)'))).toHaveLength(2);
      expect(run.stderr).toMatch(/выберите другой ваучер или запустите buy снова с --over-limit/);
      expect(payments(gateway.received)).toEqual([]);
    });
  });

  it('is paid as chosen with --over-limit', async () => {
    const gateway = await sandbox();
    const run = await buy(
      gateway.baseUrl,
      { ...gameCoins, overLimit: true },
      [{ select: /1200 GameCoins/ }, { confirm: true }],
      await limited(),
    );
    expect(run.error).toBeUndefined();
    expect(payments(gateway.received).map((form) => form.get('Amount'))).toEqual(['4990.50']);
  });
});
