import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fake-gateway.js';
import { paymentsReceived, sandboxCodeEnv, sandboxWithEnv } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';

/**
 * The live guard through the bin (docs/desk-safety.md "A live profile"): a config file whose
 * live profile points at a sandbox on loopback. Every run here has stdin as a pipe (a script).
 */
const started: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
});

async function liveSandbox(): Promise<{ sandbox: RunningSandbox; host: string }> {
  const { sandbox } = await sandboxWithEnv();
  started.push(sandbox);
  return { sandbox, host: new URL(sandbox.baseUrl).host };
}

const credentials = { agentId: sandboxCredentials.agentId, password: sandboxCredentials.password };

/** An env with no gateway of its own: everything comes from the config file's profiles. */
function envWithProfiles(
  profiles: Record<string, unknown>,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env = isolatedEnv({ ...sandboxCodeEnv, ...extra });
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  // Owner-only: a config file holding a password that others can read draws a warning.
  writeFileSync(join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return env;
}

const pay = ['pay', '--service', '201', '--account', '7011234567', '--amount', '150.00'];

/** The intents (each attempt's) the ledger holds; none when no ledger was made. */
async function ledgerIntents(env: Record<string, string>): Promise<Record<string, unknown>[]> {
  const path = defaultLedger(env);
  if (!existsSync(path)) return [];
  return (await ledgerRecords(path)).filter((record) => record.kind === 'intent').map((record) => ({ ...record }));
}

describe('pay through a live profile, from a script', () => {
  it('without --yes: exit 2, the LIVE line and why, and nothing sent, not even the AccountCheck', async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles({ default: { baseUrl: sandbox.baseUrl, ...credentials, live: true } });
    const result = await runCli(pay, { env });
    expect(result.code).toBe(2);
    // The default profile: nothing else chose it, so no "chosen by".
    expect(result.stderr.split('\n')[0]).toBe(`LIVE  default · ${host} · agent ${credentials.agentId}`);
    expect(result.stderr).toContain(
      'pay through the live profile "default" from a script needs --yes (stdin is not a terminal); nothing was sent',
    );
    expect(result.stderr).toContain('add --yes');
    expect(result.stdout).toBe('');
    expect(sandbox.received).toHaveLength(0);
    expect(await ledgerIntents(env)).toHaveLength(0);
  });

  it('with --yes: paid, and the intent in the ledger records the lifted guard', async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles({ default: { baseUrl: sandbox.baseUrl, ...credentials, live: true } });
    const result = await runCli([...pay, '--yes'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(`LIVE  default · ${host} · agent ${credentials.agentId}`);
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    const [intent, ...more] = await ledgerIntents(env);
    expect(more).toHaveLength(0);
    expect(intent).toMatchObject({ service: '201', amount: '150.00', overrides: ['yes'] });
  });

  it('chosen by AGENTPAY_PROFILE: the line says so, under --json too (a note on stderr, data on stdout)', async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles(
      {
        default: { baseUrl: await closedPortUrl(), ...credentials },
        prod: { baseUrl: sandbox.baseUrl, ...credentials, live: true },
      },
      { AGENTPAY_PROFILE: 'prod' },
    );
    const result = await runCli([...pay, '--yes', '--json'], { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stderr)[0]).toEqual({
      note: `LIVE  prod · ${host} · agent ${credentials.agentId} · chosen by AGENTPAY_PROFILE=prod`,
    });
    expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'success' });
    expect(paymentsReceived(sandbox)).toHaveLength(1);
  });

  it("chosen by AGENTPAY_BASE_URL naming the live profile's gateway while the default profile is not live: refused without --yes", async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles(
      {
        default: { baseUrl: await closedPortUrl(), ...credentials },
        prod: { baseUrl: sandbox.baseUrl, ...credentials, live: true },
      },
      { AGENTPAY_BASE_URL: sandbox.baseUrl },
    );
    const result = await runCli(pay, { env });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `LIVE  prod · ${host} · agent ${credentials.agentId} · chosen by AGENTPAY_BASE_URL`,
    );
    expect(sandbox.received).toHaveLength(0);
  });

  it('--dry-run sends no Payment: the line (chosen by --profile), and no --yes needed', async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles({
      default: { baseUrl: await closedPortUrl(), ...credentials },
      prod: { baseUrl: sandbox.baseUrl, ...credentials, live: true },
    });
    const result = await runCli(['--profile', 'prod', ...pay, '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      `LIVE  prod · ${host} · agent ${credentials.agentId} · chosen by --profile prod`,
    );
    expect(result.stdout).toContain('Amount');
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});

describe('a profile that is not live', () => {
  it('shows no LIVE line and pays from a script without --yes, recording no lifted guard', async () => {
    const { sandbox } = await liveSandbox();
    const env = envWithProfiles({
      default: { baseUrl: sandbox.baseUrl, ...credentials },
      prod: { baseUrl: await closedPortUrl(), ...credentials, live: true },
    });
    const result = await runCli(pay, { env });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('LIVE');
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    expect((await ledgerIntents(env))[0]).not.toHaveProperty('overrides');
  });
});

describe('scenario through a live profile', () => {
  it('needs --yes: without it exit 2 and nothing sent; with it the payments are made', async () => {
    const { sandbox, host } = await liveSandbox();
    const env = envWithProfiles({ default: { baseUrl: sandbox.baseUrl, ...credentials, live: true } });
    const refused = await runCli(['scenario', 'examples/smoke.yaml'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(`LIVE  default · ${host} · agent ${credentials.agentId}`);
    expect(refused.stderr).toContain(
      'scenario runs its payments unattended: through the live profile "default" it needs --yes; nothing was sent',
    );
    expect(sandbox.received).toHaveLength(0);

    const ran = await runCli(['scenario', 'examples/smoke.yaml', '--yes'], { env });
    expect(ran.code).toBe(0);
    expect(ran.stderr.split('\n')[0]).toBe(`LIVE  default · ${host} · agent ${credentials.agentId}`);
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    expect(await ledgerIntents(env)).toEqual([expect.objectContaining({ overrides: ['yes'] })]);
  });
});
