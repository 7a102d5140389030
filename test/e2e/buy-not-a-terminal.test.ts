import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * `buy` spawned with pipes for stdin, stdout and stderr, as a script or cron would run it:
 * it refuses at once (exit 2), names the commands for scripts, and sends nothing.
 */
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('buy without a terminal', () => {
  it.each([
    ['no flags', ['buy']],
    ['every flag', ['buy', '--service', '101', '--account', '7011234567', '--currency', 'KZT', '--amount', '2497.00']],
    ['--json', ['--json', 'buy', '--service', '101', '--account', '7011234567']],
  ])('refuses with exit 2 and sends nothing (%s)', async (_name, args) => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const result = await runCli(args, { env: started.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/agentpay check/);
    expect(result.stderr).toMatch(/agentpay pay/);
    expect(started.sandbox.received).toHaveLength(0);
  });

  it('refuses under --sandbox too, before starting anything', async () => {
    const result = await runCli(['--sandbox', 'buy'], { env: isolatedEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs a person at a terminal (stdin is not a terminal)');
  });
});
