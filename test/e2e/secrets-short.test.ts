import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { answer, closedPortUrl, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';

/**
 * A password is masked where it is sent (the form's AgentPassword) and blanked where a gateway
 * may echo it (secrets-echoed.test.ts), never searched for in every text agentpay writes: a
 * password that is a word of the output (`index`, `AccountCheck`) leaves that word whole.
 */
let gateway: FakeGateway;
beforeAll(async () => {
  gateway = await startFakeGateway((form, _request, response) => answer(response, 200, envelopeText(form)));
});
afterAll(() => gateway.close());

const check = ['-v', 'check', '--service', '101', '--account', 'p-1'];
const envWith = (password: string, baseUrl = gateway.baseUrl) =>
  isolatedEnv({ AGENTPAY_BASE_URL: baseUrl, AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: password });

describe('a password that is also a word of the output', () => {
  it.each(['index', 'AccountCheck', 'x'])(
    '%s: the --verbose trace keeps the URL and the operation whole',
    async (password) => {
      const result = await runCli(check, { env: envWith(password) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(`→ POST ${gateway.baseUrl}/home/index AccountCheck\n`);
      expect(result.stderr).toContain('"AgentPassword":"***"');
      expect(result.stderr).not.toContain(`"AgentPassword":"${password}"`);
      expect(gateway.received.at(-1)?.get('AgentPassword')).toBe(password);
    },
  );

  it('index: an error naming the endpoint keeps it whole', async () => {
    const closed = await closedPortUrl();
    const result = await runCli(['check', '--service', '101', '--account', 'p-1'], { env: envWith('index', closed) });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`${closed}/home/index`);
    expect(result.stderr).not.toContain('***');
  });
});
