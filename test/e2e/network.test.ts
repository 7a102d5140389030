import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { sandboxResponder, startScriptedServer } from '../helpers/misbehaving-server.js';
import { selfSignedCertificate } from '../helpers/tls.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
let proxy: ForwardProxy;
beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await sandbox.close();
  await proxy.close();
});
afterEach(() => {
  proxy.forwarded.length = 0;
  proxy.tunnels.length = 0;
});

const pay = (account: string) => ['pay', '--service', '201', '--account', account, '--amount', '5', '--json'];

describe('proxies', () => {
  it('HTTP_PROXY is honoured: the payment goes through the proxy', async () => {
    const result = await runCli(pay('via-env-proxy'), { env: { ...env, HTTP_PROXY: proxy.url } });
    expect(result.code).toBe(0);
    expect(proxy.forwarded).toEqual([`${sandbox.baseUrl}/home/index`]);
    expect(paymentsReceived(sandbox).map((form) => form.get('Account'))).toContain('via-env-proxy');
  });

  it('the lower-case http_proxy too, as curl reads it', async () => {
    const result = await runCli(['status', '1'], { env: { ...env, http_proxy: proxy.url } });
    expect(result.code).toBe(3); // not found: an answer came, through the proxy
    expect(proxy.forwarded).toHaveLength(1);
  });

  it('NO_PROXY=127.0.0.1 bypasses it', async () => {
    const result = await runCli(pay('no-proxy'), { env: { ...env, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    expect(result.code).toBe(0);
    expect(proxy.forwarded).toEqual([]);
    expect(paymentsReceived(sandbox).map((form) => form.get('Account'))).toContain('no-proxy');
  });

  it('--proxy sets one explicitly, whatever the environment says', async () => {
    const result = await runCli(['--proxy', proxy.url, ...pay('explicit-proxy')], {
      env: { ...env, NO_PROXY: '127.0.0.1' },
    });
    expect(result.code).toBe(0);
    expect(proxy.forwarded).toEqual([`${sandbox.baseUrl}/home/index`]);
  });

  it('a proxy that is down: exit 4, the payment was not sent, and the hint names the proxy', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(pay('proxy-down'), {
      env: { ...env, HTTP_PROXY: 'http://user:proxy-secret@127.0.0.1:9' },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('connection refused; no payment was sent');
    expect(result.stderr).toContain('the proxy (HTTP_PROXY=http://***:***@127.0.0.1:9/)');
    expect(result.stderr).not.toContain('proxy-secret');
    expect(paymentsReceived(sandbox).length).toBe(before);
  });

  it('HTTPS_PROXY tunnels to an https gateway with CONNECT, its certificate still verified', async () => {
    const certificate = await selfSignedCertificate();
    const gateway = await startScriptedServer(sandboxResponder(), certificate);
    try {
      const httpsEnv = { ...env, AGENTPAY_BASE_URL: gateway.baseUrl, HTTPS_PROXY: proxy.url };
      const refused = await runCli(pay('tunnel'), { env: httpsEnv });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('certificate');
      expect(gateway.received).toHaveLength(0);
      const result = await runCli(['--ca-file', certificate.certPath, ...pay('tunnel')], { env: httpsEnv });
      expect(result.code).toBe(0);
      expect(jsonLines(result.stdout)[0]).toMatchObject({ state: 'success' });
      expect(proxy.tunnels).toEqual([new URL(gateway.baseUrl).host, new URL(gateway.baseUrl).host]);
      expect(gateway.received.map((form) => form.get('RequestType'))).toEqual(['Payment']);
    } finally {
      await gateway.close();
    }
  });
});

describe('a proxy that asks for credentials', () => {
  let guarded: ForwardProxy;
  beforeAll(async () => {
    guarded = await startForwardProxy('clerk:proxy-pass');
  });
  afterAll(() => guarded.close());
  const withLogin = () => guarded.url.replace('http://', 'http://clerk:proxy-pass@');

  it('an http:// gateway: without them exit 4, no payment sent; with them in the URL it goes through', async () => {
    const before = paymentsReceived(sandbox).length;
    const refused = await runCli(pay('proxy-login-http'), { env: { ...env, HTTP_PROXY: guarded.url } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('the proxy asks for credentials (HTTP 407)');
    expect(refused.stderr).toContain('no payment was sent');
    expect(paymentsReceived(sandbox).length).toBe(before);
    const paid = await runCli(pay('proxy-login-http'), { env: { ...env, HTTP_PROXY: withLogin() } });
    expect(paid.code).toBe(0);
    expect(guarded.forwarded).toEqual([`${sandbox.baseUrl}/home/index`]);
    expect(paymentsReceived(sandbox).map((form) => form.get('Account'))).toContain('proxy-login-http');
  });

  it('an https:// gateway through CONNECT: the same, said as credentials, not as a refused tunnel', async () => {
    const certificate = await selfSignedCertificate();
    const gateway = await startScriptedServer(sandboxResponder(), certificate);
    try {
      const httpsEnv = { ...env, AGENTPAY_BASE_URL: gateway.baseUrl, AGENTPAY_CA_FILE: certificate.certPath };
      const refused = await runCli(pay('proxy-login-https'), { env: { ...httpsEnv, HTTPS_PROXY: guarded.url } });
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('the proxy asks for credentials (HTTP 407)');
      expect(refused.stderr).toContain('no payment was sent');
      expect(gateway.received).toHaveLength(0);
      const paid = await runCli(pay('proxy-login-https'), { env: { ...httpsEnv, HTTPS_PROXY: withLogin() } });
      expect(paid.code).toBe(0);
      expect(gateway.received.map((form) => form.get('RequestType'))).toEqual(['Payment']);
    } finally {
      await gateway.close();
    }
  });

  it('a batch of look-ups goes through it too, on its kept-alive connections', async () => {
    const ids = join(env.HOME!, 'proxy-ids.txt');
    writeFileSync(ids, `${Array.from({ length: 20 }, (_, n) => 404400 + n).join('\n')}\n`);
    guarded.forwarded.length = 0;
    const run = await runCli(['status', '--from-file', ids, '--concurrency', '4', '--json'], {
      env: { ...env, HTTP_PROXY: withLogin() },
    });
    expect(run.code).toBe(3); // not found, every one: each an answer through the proxy
    expect(jsonLines(run.stdout)).toHaveLength(20);
    expect(guarded.forwarded).toHaveLength(20);
    expect(guarded.connections.mostOpen).toBeLessThanOrEqual(4);
  });
});

describe('agentpay doctor', () => {
  it('shows where each setting came from, the password masked, and that the gateway answers', async () => {
    const configHome = join(env.HOME!, 'doctor-config');
    mkdirSync(join(configHome, 'agentpay'), { recursive: true });
    writeFileSync(
      join(configHome, 'agentpay', 'config.json'),
      JSON.stringify({ profiles: { default: { timeout: 4000, agentId: '5' } } }),
      { mode: 0o600 },
    );
    const doctorEnv = {
      ...env,
      XDG_CONFIG_HOME: configHome,
      AGENTPAY_PENDING_CODES: '11,12',
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'localhost',
    };
    const human = await runCli(['--base-url', sandbox.baseUrl, 'doctor'], { env: doctorEnv });
    expect(human.code).toBe(0);
    const line = (key: string) => human.stdout.split('\n').find((l) => l.trim().startsWith(`${key} `)) ?? '';
    expect(line('baseUrl')).toMatch(/flag --base-url$/);
    expect(line('agentId')).toMatch(/1001 .* env AGENTPAY_AGENT_ID$/);
    expect(line('password')).toMatch(/\*\*\* .* env AGENTPAY_PASSWORD$/);
    const configPath = join(configHome, 'agentpay', 'config.json');
    expect(line('timeoutMs')).toMatch(/4000 .* profile "default" in (\S+)$/);
    expect(line('timeoutMs').endsWith(`profile "default" in ${configPath}`)).toBe(true);
    expect(human.stdout).not.toContain('profile profile');
    expect(line('pendingCodes')).toMatch(/11,12 .* env AGENTPAY_PENDING_CODES$/);
    expect(line('dateFormat')).toMatch(/local .* default$/);
    expect(line('httpProxy')).toMatch(/env HTTP_PROXY$/);
    expect(human.stdout).toContain('✓ Status for ');
    expect(human.stdout).toContain('(not found, as expected for a made-up id)');
    expect(human.stdout).not.toContain(sandboxCredentials.password);
    // It went the way a payment would: through the proxy.
    expect(proxy.forwarded).toHaveLength(1);
    expect(sandbox.received.at(-1)!.get('RequestType')).toBe('Status');

    expect(human.stdout).not.toContain('is not in notFoundCodes');

    // A gateway nobody described yet: doctor learns its not-found code and says what to add.
    const { AGENTPAY_NOT_FOUND_CODES: _told, ...undescribed } = env;
    const json = await runCli(['--json', 'doctor'], { env: { ...undescribed, AGENTPAY_TIMEOUT: '3000' } });
    expect(json.code).toBe(0);
    const lines = jsonLines(json.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      settings: {
        baseUrl: { value: sandbox.baseUrl, source: 'env', origin: 'AGENTPAY_BASE_URL' },
        agentId: { value: '1001', source: 'env', origin: 'AGENTPAY_AGENT_ID' },
        password: { value: '***', source: 'env', origin: 'AGENTPAY_PASSWORD' },
        timeoutMs: { value: '3000', source: 'env', origin: 'AGENTPAY_TIMEOUT' },
        notFoundCodes: { value: '', source: 'default' },
        proxy: { value: null, source: 'unset' },
      },
      gateway: {
        ok: true,
        status: '25',
        codeClass: 'unclassified',
        suggest: { notFoundCodes: ['25'] },
        suggestOnlyIf: expect.stringContaining('not that the agent id or password is refused'),
        route: 'direct',
      },
    });
    const suggested = await runCli(['doctor'], { env: undescribed });
    expect(suggested.code).toBe(0);
    expect(suggested.stdout).toContain(
      'ResponseStatus 25 is not in notFoundCodes. If, and only if, its Message means "no such transaction" (not a refusal of your credentials)',
    );
    expect(suggested.stdout).toContain('profile:  "notFoundCodes": ["25"]');
    expect(suggested.stdout).toContain('flag:     --not-found-codes 25');
  });

  it('a profile\'s settings and password read naturally: profile "<name>" in <file>, once; --json keeps source and origin', async () => {
    const configHome = join(env.HOME!, 'doctor-profile');
    mkdirSync(join(configHome, 'agentpay'), { recursive: true });
    const configPath = join(configHome, 'agentpay', 'config.json');
    const passwordFile = join(env.HOME!, 'doctor-password');
    writeFileSync(passwordFile, `${sandboxCredentials.password}\n`, { mode: 0o600 });
    writeFileSync(
      configPath,
      JSON.stringify({ profiles: { qa: { baseUrl: sandbox.baseUrl, agentId: '1001', passwordFile } } }),
      { mode: 0o600 },
    );
    const profileEnv = isolatedEnv({ XDG_CONFIG_HOME: configHome });
    const human = await runCli(['--profile', 'qa', 'doctor'], { env: profileEnv });
    expect(human.code).toBe(0);
    const line = (key: string) => human.stdout.split('\n').find((l) => l.trim().startsWith(`${key} `)) ?? '';
    expect(line('profile')).toMatch(/qa .* flag --profile$/);
    expect(line('baseUrl').endsWith(`profile "qa" in ${configPath}`)).toBe(true);
    expect(line('password').endsWith(`profile "qa" in ${configPath}: passwordFile ${passwordFile}`)).toBe(true);
    expect(human.stdout).not.toMatch(/profile profile/);
    const json = await runCli(['--profile', 'qa', '--json', 'doctor'], { env: profileEnv });
    expect(JSON.parse(json.stdout)).toMatchObject({
      settings: {
        baseUrl: { value: sandbox.baseUrl, source: 'profile', origin: `"qa" in ${configPath}` },
        password: { value: '***', source: 'profile', origin: `"qa" in ${configPath}: passwordFile ${passwordFile}` },
      },
    });
  });

  it.each([
    { name: 'no gateway set', extra: { AGENTPAY_BASE_URL: '' }, code: 2, message: 'no gateway is set' },
    {
      name: 'nothing listening',
      extra: { AGENTPAY_BASE_URL: 'http://127.0.0.1:9' },
      code: 4,
      message: 'connection refused',
    },
    { name: 'an answer not understood', garbage: 'shape' as const, extra: {}, code: 5, message: 'not understood' },
  ])('exits $code with $name, after the settings', async ({ extra, garbage, code, message }) => {
    sandbox.faults.garbage = garbage;
    try {
      const result = await runCli(['doctor'], { env: { ...env, ...extra } });
      expect(result.code).toBe(code);
      expect(result.stdout).toContain('Settings (flag > env > profile > default)');
      expect(result.stdout).toContain(`✗ `);
      expect(result.stderr).toContain(message);
      const json = await runCli(['--json', 'doctor'], { env: { ...env, ...extra } });
      expect(json.code).toBe(code);
      expect(JSON.parse(json.stdout)).toMatchObject({ gateway: { ok: false, exitCode: code } });
    } finally {
      sandbox.faults.garbage = undefined;
    }
  });

  it('under --sandbox the password source is the sandbox, and nothing needs configuring', async () => {
    const result = await runCli(['--sandbox', '--json', 'doctor'], { env: isolatedEnv() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      settings: { password: { value: '***', source: 'sandbox' } },
      gateway: { ok: true },
    });
  });
});
