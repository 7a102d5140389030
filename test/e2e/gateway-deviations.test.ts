import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, type FakeHandler, startFakeGateway } from '../helpers/fake-gateway.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { paymentAcceptedKoi8r, windows1251 } from '../helpers/legacy-charsets.js';

/**
 * What independent gateways do that the sandbox does not, through the real bin: answers in a
 * charset other than UTF-8, and error envelopes that echo TransactinID 0.
 */
const fakes: FakeGateway[] = [];
afterEach(async () => {
  while (fakes.length > 0) await fakes.pop()!.close();
});

async function gatewayAt(handler: FakeHandler): Promise<{ fake: FakeGateway; env: Record<string, string> }> {
  const fake = await startFakeGateway(handler);
  fakes.push(fake);
  return {
    fake,
    env: isolatedEnv({ AGENTPAY_BASE_URL: fake.baseUrl, AGENTPAY_AGENT_ID: '1001', AGENTPAY_PASSWORD: 'pw' }),
  };
}

const recordsOf = (env: Record<string, string>) => ledgerRecords(defaultLedger(env));

describe('an answer in the charset its Content-Type declares', () => {
  const refusal = 'Ошибка: счёт не найден';
  const refusingIn1251: FakeHandler = (form, _req, res) =>
    answer(
      res,
      200,
      windows1251(envelopeText(form, { status: 20, message: refusal })),
      'application/json; charset=windows-1251',
    );

  it('check --json: a windows-1251 refusal Message comes out byte for byte in UTF-8, exit 1', async () => {
    const { env } = await gatewayAt(refusingIn1251);
    const result = await runCli(['--json', 'check', '--service', '101', '--account', '7011234567'], { env });
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ status: '20', message: refusal })]);
    // Not escaped, not mangled: the very UTF-8 bytes of the text.
    expect(Buffer.from(result.stdout, 'utf8').includes(Buffer.from(`"message":"${refusal}"`, 'utf8'))).toBe(true);
    const [error] = jsonLines(result.stderr);
    expect(error).toEqual({
      error: expect.objectContaining({
        exitCode: 1,
        type: 'GatewayRefusedError',
        message: expect.stringContaining(`${refusal} (ResponseStatus 20)`),
      }),
    });
  });

  it('check: the same refusal for a person', async () => {
    const { env } = await gatewayAt(refusingIn1251);
    const result = await runCli(['check', '--service', '101', '--account', '7011234567'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the gateway refused the account check: ${refusal} (ResponseStatus 20)`);
  });

  it('pay: a koi8-r Message is shown and recorded as written', async () => {
    const { env } = await gatewayAt((form, _req, res) => {
      const envelope = `{"TransactinID":${form.get('TransactionID')},"RequestID":77,"ResponseType":"Payment","ResponseStatus":10,"Message":"`;
      answer(
        res,
        200,
        Buffer.concat([Buffer.from(envelope), paymentAcceptedKoi8r.bytes, Buffer.from('"}')]),
        'application/json; charset=KOI8-R',
      );
    });
    const result = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5', '--txn-id', '5150'], {
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Message\\s+${paymentAcceptedKoi8r.text}\\n?$`));
    const outcome = (await recordsOf(env)).find((record) => record.kind === 'outcome');
    expect(outcome).toMatchObject({
      transactionId: '5150',
      view: { state: 'success', message: paymentAcceptedKoi8r.text },
    });
  });
});

describe('an error envelope that echoes TransactinID 0', () => {
  const zeroEcho =
    (status: number, message: string): FakeHandler =>
    (form, _req, res) =>
      answer(
        res,
        200,
        `{"TransactinID":0,"RequestID":0,"ResponseType":${JSON.stringify(form.get('RequestType'))},"ResponseStatus":${status},"Message":${JSON.stringify(message)}}`,
      );

  it('check: the refusal is shown with its Message and code, exit 1 (not 5)', async () => {
    const { env } = await gatewayAt(zeroEcho(30, 'Счёт не найден'));
    const human = await runCli(['check', '--service', '101', '--account', '7011234567'], { env });
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('the gateway refused the account check: Счёт не найден (ResponseStatus 30)');
    expect(human.stderr).not.toContain('not understood');

    const json = await runCli(['--json', 'check', '--service', '101', '--account', '7011234567'], { env });
    expect(json.code).toBe(1);
    const [line] = jsonLines(json.stdout);
    expect(line).toMatchObject({ status: '30', message: 'Счёт не найден' });
    expect(line!.transactionId).toMatch(/^[1-9]\d+$/);
    expect(jsonLines(json.stderr)).toEqual([
      {
        error: expect.objectContaining({
          exitCode: 1,
          message: expect.stringContaining('Счёт не найден (ResponseStatus 30)'),
        }),
      },
    ]);
  });

  it('pay --amount: a success echoing 0 is a success under our TransactionID, in the receipt, --json and the ledger', async () => {
    const { fake, env } = await gatewayAt(zeroEcho(10, 'OK'));
    const human = await runCli(['pay', '--service', '201', '--account', 'a', '--amount', '5'], { env });
    expect(human.code).toBe(0);
    const ours = fake.received[0]!.get('TransactionID')!;
    expect(ours).toMatch(/^[1-9]\d+$/);
    expect(human.stdout).toContain('Payment succeeded');
    expect(human.stdout).toMatch(new RegExp(`TransactionID\\s+${ours}\\n`));
    expect((await recordsOf(env)).filter((record) => record.kind === 'outcome')).toEqual([
      expect.objectContaining({
        transactionId: ours,
        view: expect.objectContaining({ transactionId: ours, state: 'success' }),
      }),
    ]);

    const json = await runCli(['--json', 'pay', '--service', '201', '--account', 'b', '--amount', '5'], { env });
    expect(json.code).toBe(0);
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({
        transactionId: fake.received[1]!.get('TransactionID'),
        state: 'success',
        status: '10',
      }),
    ]);
  });
});
