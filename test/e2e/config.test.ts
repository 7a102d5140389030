import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/protocol/password.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fake-gateway.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

/** Where settings and the password come from, through the real bin. */
let sandbox: RunningSandbox;
let deadUrl: string;

beforeAll(async () => {
  ({ sandbox } = await sandboxWithEnv());
  deadUrl = await closedPortUrl();
});
afterAll(async () => {
  await sandbox.close();
});

const password = sandboxCredentials.password;
const check = ['check', '--service', '201', '--account', '7011234567'];

function withConfig(env: Record<string, string>, config: unknown): Record<string, string> {
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'), JSON.stringify(config));
  return env;
}

function writeFile(env: Record<string, string>, name: string, text: string): string {
  const path = join(env.HOME!, name);
  // Owner-only, as a password file must be (a world-readable one is refused).
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** The AgentID of the last request the sandbox received, to see which setting won. */
const lastAgentId = () => sandbox.received.at(-1)?.get('AgentID');

describe('precedence: flag > env > profile > default', () => {
  it('the profile alone is enough', async () => {
    const env = withConfig(isolatedEnv(), {
      profiles: { default: { baseUrl: sandbox.baseUrl, agentId: '1001', password } },
    });
    const result = await runCli(check, { env });
    expect(result.code).toBe(0);
    expect(lastAgentId()).toBe('1001');
    // Service 201 is static: no table, a note on how to pay it.
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('No voucher list for service 201, account 7011234567: a static service');
  });

  it('env beats the profile', async () => {
    const env = withConfig(isolatedEnv({ AGENTPAY_BASE_URL: sandbox.baseUrl, AGENTPAY_AGENT_ID: '1001' }), {
      profiles: { default: { baseUrl: deadUrl, agentId: '9', password } },
    });
    const result = await runCli(check, { env });
    expect(result.code).toBe(0);
    expect(lastAgentId()).toBe('1001');
  });

  it('a flag beats env and profile, placed after the command name too', async () => {
    const env = withConfig(
      isolatedEnv({ AGENTPAY_BASE_URL: deadUrl, AGENTPAY_AGENT_ID: '8', AGENTPAY_PASSWORD: password }),
      {
        profiles: { default: { baseUrl: deadUrl, agentId: '9' } },
      },
    );
    const result = await runCli([...check, '--base-url', sandbox.baseUrl, '--agent-id', '1001', '--json'], { env });
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ status: '10', service: '201' });
    expect(lastAgentId()).toBe('1001');
  });

  it('--profile picks another profile; an unknown one is exit 2', async () => {
    const env = withConfig(isolatedEnv(), {
      profiles: {
        default: { baseUrl: deadUrl, agentId: '9', password },
        qa: { baseUrl: sandbox.baseUrl, agentId: '1001', password },
      },
    });
    const chosen = await runCli(['--profile', 'qa', ...check], { env });
    expect(chosen.code).toBe(0);
    const unknown = await runCli([...check, '--profile', 'staging'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('profile "staging" is not in');
    expect(unknown.stderr).toContain('profiles there: default, qa');
  });

  it('--profile default (or AGENTPAY_PROFILE=default) with no config file at all is the default: reconcile with nothing open exits 0', async () => {
    for (const [args, extra] of [
      [['--profile', 'default', 'reconcile'], {}],
      [['reconcile'], { AGENTPAY_PROFILE: 'default' }],
      [['reconcile', '--profile', 'default', '--json'], {}],
    ] as const) {
      const result = await runCli(args, { env: isolatedEnv(extra) });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr).toContain('nothing to reconcile');
    }
    const history = await runCli(['--profile', 'default', 'history'], { env: isolatedEnv() });
    expect(history.code).toBe(0);
  });

  it('a profile named but not found is exit 2: another name without a file, or "default" missing from an existing file', async () => {
    const fresh = await runCli(['--profile', 'staging', 'reconcile'], { env: isolatedEnv() });
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toContain('profile "staging" is not in');
    expect(fresh.stderr).toContain('create the file or drop --profile');
    const env = withConfig(isolatedEnv(), { profiles: { qa: { baseUrl: sandbox.baseUrl } } });
    const missing = await runCli(['--profile', 'default', 'reconcile'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('profile "default" is not in');
    expect(missing.stderr).toContain('profiles there: qa');
    // Not named, a file without a "default" profile is fine: flags and env do the rest.
    expect((await runCli(['reconcile'], { env })).code).toBe(0);
  });

  it('a config file that is not JSON is exit 2, naming the file', async () => {
    const env = isolatedEnv({
      AGENTPAY_BASE_URL: sandbox.baseUrl,
      AGENTPAY_AGENT_ID: '1001',
      AGENTPAY_PASSWORD: password,
    });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'), '{"profiles": ');
    const result = await runCli(check, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'));
    expect(result.stderr).toContain('is not valid JSON');
  });
});

describe('the password', () => {
  const base = () => isolatedEnv({ AGENTPAY_BASE_URL: sandbox.baseUrl, AGENTPAY_AGENT_ID: '1001' });

  it('--password-file reads a file, dropping one trailing newline', async () => {
    const env = base();
    const file = writeFile(env, 'password', `${password}\n`);
    const result = await runCli(['--password-file', file, ...check], { env });
    expect(result.code).toBe(0);
    expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe(password);
  });

  it('--password-file - reads stdin', async () => {
    const result = await runCli([...check, '--password-file', '-'], { env: base(), input: `${password}\n` });
    expect(result.code).toBe(0);
    expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe(password);
  });

  it('--password-file beats AGENTPAY_PASSWORD; a wrong password is refused by the gateway (exit 1)', async () => {
    const env = { ...base(), AGENTPAY_PASSWORD: password };
    const file = writeFile(env, 'wrong', 'not-the-password\n');
    const result = await runCli(['--password-file', file, ...check], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ResponseStatus 20/);
    expect(result.stderr).not.toContain('not-the-password');
  });

  it('AGENTPAY_PASSWORD_FILE is read when nothing else is set', async () => {
    const env = base();
    env.AGENTPAY_PASSWORD_FILE = writeFile(env, 'password', password);
    expect((await runCli(check, { env })).code).toBe(0);
  });

  it('a missing password file is exit 2; no password at all is exit 2 with a hint', async () => {
    const missing = await runCli(['--password-file', '/nonexistent/agentpay-password', ...check], { env: base() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the password file /nonexistent/agentpay-password');
    const none = await runCli(check, { env: base() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no agent password is set');
    expect(none.stderr).toContain('--password-file');
  });

  it('--password-format md5 sends the MD5 and the sandbox accepts it', async () => {
    const result = await runCli(['--password-format', 'md5', ...check], {
      env: { ...base(), AGENTPAY_PASSWORD: password },
    });
    expect(result.code).toBe(0);
    expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe(md5Hex(password));
    expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe('f86b4a1de5997aa1ca228f3c9a4dbcdc');
  });

  it('AGENTPAY_PASSWORD_FORMAT=md5 does the same; a bad format is exit 2', async () => {
    const env = { ...base(), AGENTPAY_PASSWORD: password, AGENTPAY_PASSWORD_FORMAT: 'md5' };
    expect((await runCli(check, { env })).code).toBe(0);
    expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe(md5Hex(password));
    const bad = await runCli(['--password-format', 'sha1', ...check], { env });
    expect(bad.code).toBe(2);
  });
});
