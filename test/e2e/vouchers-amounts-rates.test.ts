import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, type FakeHandler, startFakeGateway } from '../helpers/fake-gateway.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { startSpecServer } from '../helpers/spec-server.js';

/**
 * What independent gateways were seen to do that the sandbox never does: an empty voucher
 * list, an Amount reported other than the one sent, a crediting currency in the account
 * check. Each against a purpose-built gateway on 127.0.0.1 (the exchange rate against the
 * sandbox too).
 */
let gateway: FakeGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function gatewayWith(handler: FakeHandler): Promise<{ gateway: FakeGateway; env: Record<string, string> }> {
  gateway = await startFakeGateway(handler);
  const env = isolatedEnv({
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
  });
  return { gateway, env };
}

const ofType = (received: readonly URLSearchParams[], type: string) =>
  received.filter((form) => form.get('RequestType') === type);
const recordsOf = (env: Record<string, string>) => ledgerRecords(defaultLedger(env));

/** A success answer to every Payment, its Amount written as `reported` (raw JSON). */
const reportingAmount =
  (reported: string): FakeHandler =>
  (form, _request, response) =>
    answer(
      response,
      200,
      envelopeText(form, {
        content: `{"Service":"201","account":${JSON.stringify(form.get('Account'))},"Amount":${reported},"Currency":"KZT","ExchangeRate":1,"ServiceCurrency":"KZT"}`,
      }),
    );

describe('a reported Amount that is not the decimal sent', () => {
  const pay = (amount: string) => ['pay', '--service', '201', '--account', 'player-42', '--amount', amount];

  it('24970 reported for 2497.00 sent: a warning line on the receipt, the state and exit code the gateway gave', async () => {
    const { gateway, env } = await gatewayWith(reportingAmount('24970'));
    const result = await runCli(pay('2497.00'), { env });
    expect(result.code).toBe(0);
    expect(ofType(gateway.received, 'Payment').map((form) => form.get('Amount'))).toEqual(['2497.00']);
    expect(result.stdout).toContain('✓ Payment succeeded');
    expect(result.stdout).toMatch(/Amount +24970 KZT\n/);
    expect(result.stdout).toMatch(
      /Warning +! the gateway reports Amount 24970, not the 2497\.00 that was sent: ask the gateway which amount was charged\n?$/,
    );
    // The ledger keeps it with the outcome, for history and for whoever looks later.
    const outcome = (await recordsOf(env)).find((record) => record.kind === 'outcome');
    expect(outcome?.kind === 'outcome' ? outcome.view : undefined).toMatchObject({
      state: 'success',
      amount: '24970',
      warnings: [expect.stringContaining('Amount 24970, not the 2497.00')],
    });
  });

  it('--json: the transaction line gains "warnings"', async () => {
    const { env } = await gatewayWith(reportingAmount('24970'));
    const result = await runCli(['--json', ...pay('2497.00')], { env });
    expect(result.code).toBe(0);
    const [line, ...more] = jsonLines(result.stdout);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ state: 'success', status: '10', amount: '24970' });
    expect(line?.warnings).toEqual([
      'the gateway reports Amount 24970, not the 2497.00 that was sent: ask the gateway which amount was charged',
    ]);
    const history = await runCli(['--json', 'history'], { env });
    expect(jsonLines(history.stdout)[0]?.warnings).toEqual(line?.warnings);
  });

  it('1500 reported for 1500.00 sent is the same amount: no warning, no "warnings" key', async () => {
    const { env } = await gatewayWith(reportingAmount('1500'));
    const human = await runCli(pay('1500.00'), { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Amount +1500 KZT\n/);
    expect(human.stdout).not.toContain('Warning');
    const json = await runCli(['--json', ...pay('1500.00'), '--allow-duplicate'], { env });
    expect(json.code).toBe(0);
    const [line] = jsonLines(json.stdout);
    expect(line).toMatchObject({ state: 'success', amount: '1500' });
    expect(Object.keys(line!)).not.toContain('warnings');
  });
});

/** AccountCheck answered with `extras` as the content's Extras (raw JSON; undefined leaves the key out). */
const checkAnswering =
  (extras: string | undefined): FakeHandler =>
  (form, _request, response) =>
    answer(
      response,
      200,
      envelopeText(form, {
        content: `{"Service":"101","account":${JSON.stringify(form.get('Account'))},"Amount":0,"Currency":"KZT","ExchangeRate":1${extras === undefined ? '' : `,"Extras":${extras}`}}`,
      }),
    );

describe('an empty voucher list is not a static service', () => {
  const check = ['check', '--service', '101', '--account', '7011234567'];

  it('check says nothing is available for this account now (exit 0: the check succeeded), not "static"', async () => {
    const { env } = await gatewayWith(checkAnswering('[]'));
    const result = await runCli(check, { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      "No vouchers available for service 101, account 7011234567 now: the gateway's voucher list is empty (not a static service). Try again later, or another account.",
    );
    expect(result.stderr).not.toContain('--amount');
  });

  it('check --json: vouchers is [] for an empty list, null for no Extras at all (a static service)', async () => {
    const empty = await gatewayWith(checkAnswering('[]'));
    const listed = await runCli(['--json', ...check], { env: empty.env });
    expect(listed.code).toBe(0);
    expect(jsonLines(listed.stdout)[0]).toMatchObject({ state: 'success', vouchers: [] });
    await empty.gateway.close();

    const staticService = await gatewayWith(checkAnswering(undefined));
    const none = await runCli(['--json', ...check], { env: staticService.env });
    expect(none.code).toBe(0);
    expect(jsonLines(none.stdout)[0]).toMatchObject({ state: 'success', vouchers: null });
    const human = await runCli(check, { env: staticService.env });
    expect(human.stderr).toContain('No voucher list for service 101, account 7011234567: a static service.');
  });

  it('pay --invoice-id refuses before any Payment, saying the list is empty for this account now (exit 2)', async () => {
    const { gateway, env } = await gatewayWith(checkAnswering('[]'));
    const result = await runCli(['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002'], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'agentpay: the voucher list of service 101 is empty for account 7011234567 now; no payment was sent',
    );
    expect(ofType(gateway.received, 'AccountCheck')).toHaveLength(1);
    expect(ofType(gateway.received, 'Payment')).toEqual([]);
  });
});

describe('foreign exchange heads the voucher list of check', () => {
  it('the sandbox gift card: the rate 0.921 before the table; GameCoins at 1: no such line', async () => {
    const env = isolatedEnv();
    const usd = await runCli(
      ['--sandbox', 'check', '--service', '102', '--account', 'player-42', '--currency', 'USD'],
      { env },
    );
    expect(usd.code).toBe(0);
    expect(usd.stderr).toMatch(
      /^Exchange rate 0\.921: paid in USD, crediting currency not given\n3 vouchers for service 102/m,
    );
    expect(usd.stdout).toContain('10.630');
    const kzt = await runCli(['--sandbox', 'check', '--service', '101', '--account', 'player-42'], { env });
    expect(kzt.code).toBe(0);
    expect(kzt.stderr).not.toContain('Exchange rate');
  });

  it('a gateway that says it credits in EUR: the crediting currency too, for a static service as well', async () => {
    const server = await startSpecServer({ exchangeRate: '0.00191', serviceCurrency: 'EUR' });
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: server.baseUrl,
        AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
        AGENTPAY_PASSWORD: sandboxCredentials.password,
      });
      const result = await runCli(['check', '--service', '201', '--account', 'player-42'], { env });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        'Exchange rate 0.00191: paid in KZT, credited in EUR\nNo voucher list for service 201',
      );
    } finally {
      await server.close();
    }
  });
});
