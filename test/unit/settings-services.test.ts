import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { resolveSettings } from '../../src/settings/resolve.js';

/** A profile's `services`, read from a real config file as every command reads it (settings/services.ts). */
function envWithServices(services: unknown): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'agentpay-services-'));
  mkdirSync(join(home, 'config', 'agentpay'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'agentpay', 'config.json'),
    JSON.stringify({ profiles: { default: { services } } }),
    { mode: 0o600 },
  );
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
}

async function servicesError(services: unknown): Promise<UsageError> {
  const error = await resolveSettings({}, envWithServices(services)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe("a profile's services", () => {
  it('takes a plain name and a static service with its amounts, ids in ascending order (as JSON objects give them), amounts exactly as written', async () => {
    const settings = await resolveSettings(
      {},
      envWithServices({
        '101': 'GameCoins',
        '601': { name: 'Cinema voucher', kind: 'static', amounts: ['1500.00', '3000.00', '10.5'] },
        '602': { kind: 'static' },
        '102': { name: 'Gift card', kind: 'dynamic' },
      }),
    );
    expect(settings.services).toEqual([
      { id: '101', name: 'GameCoins', kind: undefined, amounts: [] },
      { id: '102', name: 'Gift card', kind: 'dynamic', amounts: [] },
      { id: '601', name: 'Cinema voucher', kind: 'static', amounts: ['1500.00', '3000.00', '10.5'] },
      { id: '602', name: undefined, kind: 'static', amounts: [] },
    ]);
  });

  it('is empty without a config file', async () => {
    expect((await resolveSettings({}, { HOME: mkdtempSync(join(tmpdir(), 'agentpay-services-')) })).services).toEqual(
      [],
    );
  });

  const refused: [string, unknown, string][] = [
    ['a number for a service', { '101': 5 }, 'expected services by id'],
    [
      'an amount written as a number',
      { '601': { kind: 'static', amounts: [1500.1] } },
      'services."601".amounts[0] (profile): 1500.1 must be written as text',
    ],
    [
      'a comma',
      { '601': { kind: 'static', amounts: ['1500,00'] } },
      'services."601".amounts[0] (profile): "1500,00" is not a plain decimal',
    ],
    [
      'an exponent',
      { '601': { kind: 'static', amounts: ['1500.00', '1.5e3'] } },
      'services."601".amounts[1] (profile): "1.5e3" is not a plain decimal',
    ],
    [
      'zero',
      { '601': { kind: 'static', amounts: ['0.00'] } },
      'services."601".amounts[0] (profile): an amount must be more than zero',
    ],
    [
      'an amount twice',
      { '601': { kind: 'static', amounts: ['1500.00', '1500.00'] } },
      'services."601".amounts[1] (profile): "1500.00" is listed twice',
    ],
    [
      'amounts not in a list',
      { '601': { kind: 'static', amounts: '1500.00' } },
      'services."601".amounts (profile): expected a list of amounts',
    ],
    [
      'amounts of a service not declared static',
      { '601': { name: 'Cinema', amounts: ['1500.00'] } },
      'services."601".amounts (profile): only a service of "kind": "static"',
    ],
    ['an unknown kind', { '601': { kind: 'fixed' } }, 'services."601".kind (profile): expected "static" or "dynamic"'],
    [
      'a misspelt key',
      { '601': { kind: 'static', amount: ['1500.00'] } },
      'services."601".amount (profile): not a key of a service (name, kind, amounts)',
    ],
    ['a name that is not text', { '601': { name: 7 } }, 'services."601".name (profile): expected text'],
    ['a blank id', { ' ': 'Nothing' }, 'services." " (profile): a service id must not be blank'],
  ];

  it.each(refused)('refuses %s, naming where in the profile', async (_case, services, message) => {
    const error = await servicesError(services);
    expect(error.message).toContain(message);
  });
});
