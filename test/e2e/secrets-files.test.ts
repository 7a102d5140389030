import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

// Where a password is kept: a config file that others can read, one that is not JSON, --password-file.
describe('config and password files', () => {
  const configFile = (env: Record<string, string>, profile: Record<string, unknown>, mode: number) => {
    const dir = join(env.XDG_CONFIG_HOME!, 'agentpay');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'config.json');
    writeFileSync(path, JSON.stringify({ profiles: { default: profile } }));
    chmodSync(path, mode);
    return path;
  };

  it('a config file holding a password that others can read draws a chmod 600 warning', async () => {
    const env = isolatedEnv();
    const path = configFile(env, { password: 'in-the-config-file', agentId: '1' }, 0o644);
    const open = await runCli(['history'], { env });
    expect(open.code).toBe(0);
    expect(open.stderr).toContain(
      `warning: the config file ${path} holds a password and can be read by group or others (mode 0644); run: chmod 600 ${path}`,
    );
    chmodSync(path, 0o640);
    expect((await runCli(['history'], { env })).stderr).toContain('chmod 600');
    chmodSync(path, 0o600);
    const closed = await runCli(['history'], { env });
    expect(closed.code).toBe(0);
    expect(closed.stderr).not.toContain('warning');
  });

  it('a config file that is not JSON is refused without quoting it', async () => {
    const env = isolatedEnv();
    const dir = join(env.XDG_CONFIG_HOME!, 'agentpay');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"default": {\n  "password": hunter2-in-broken-json}}}', {
      mode: 0o600,
    });
    const result = await runCli(['--sandbox', 'status', '1'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not valid JSON');
    expect(result.stderr).not.toContain('hunter2');
  });

  describe('--password-file', () => {
    let sandbox: RunningSandbox;
    let env: Record<string, string>;
    beforeAll(async () => {
      ({ sandbox, env } = await sandboxWithEnv());
      delete env.AGENTPAY_PASSWORD;
    });
    afterAll(() => sandbox.close());
    const passwordFile = (mode: number) => {
      const path = join(env.HOME!, `password-${mode.toString(8)}`);
      writeFileSync(path, `${sandboxCredentials.password}\n`);
      chmodSync(path, mode);
      return path;
    };
    const pay = ['pay', '--service', '201', '--account', 'a', '--amount', '5'];

    it('refuses a world-readable file: exit 2, chmod 600, nothing sent', async () => {
      const path = passwordFile(0o644);
      const before = sandbox.received.length;
      const result = await runCli(['--password-file', path, ...pay], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`the password file ${path} (--password-file) can be read by anyone (mode 0644)`);
      expect(result.stderr).toContain(`chmod 600 ${path}`);
      expect(result.stderr).toContain('--insecure-password-file');
      expect(sandbox.received.length).toBe(before);
      // AGENTPAY_PASSWORD_FILE is held to the same rule.
      const fromEnv = await runCli(pay, { env: { ...env, AGENTPAY_PASSWORD_FILE: path } });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain('(AGENTPAY_PASSWORD_FILE) can be read by anyone');
      expect(sandbox.received.length).toBe(before);
    });

    it('takes a file its group may read, with a chmod 600 warning', async () => {
      const path = passwordFile(0o640);
      const before = paymentsReceived(sandbox).length;
      const result = await runCli(['--password-file', path, ...pay], { env });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        `warning: the password file ${path} (--password-file) can be read by its group (mode 0640); run: chmod 600 ${path}`,
      );
      expect(paymentsReceived(sandbox).length).toBe(before + 1);
      const quiet = await runCli(['--password-file', passwordFile(0o600), ...pay, '--allow-duplicate'], { env });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).not.toContain('warning');
    });

    it('takes it with --insecure-password-file, and a 0600 file as it is', async () => {
      const before = paymentsReceived(sandbox).length;
      expect(
        (
          await runCli(
            ['--password-file', passwordFile(0o644), '--insecure-password-file', ...pay, '--allow-duplicate'],
            { env },
          )
        ).code,
      ).toBe(0);
      expect((await runCli(['--password-file', passwordFile(0o600), ...pay, '--allow-duplicate'], { env })).code).toBe(
        0,
      );
      expect(paymentsReceived(sandbox).length).toBe(before + 2);
    });
  });
});
