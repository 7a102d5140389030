import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/server.js';
import { isolatedEnv } from './cli.js';
import { sandboxCodeEnv, sandboxWithEnv } from './gateway-env.js';
import { Terminals } from './tmux.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A tty test file's terminals (at the repo's root) and sandboxes, all ended after the file's tests. */
export function terminalDesk(size: { columns: number; rows: number } = { columns: 120, rows: 40 }) {
  const terminals = new Terminals({ cwd: repoRoot, ...size });
  const sandboxes: RunningSandbox[] = [];
  afterAll(async () => {
    await terminals.killAll();
    for (const sandbox of sandboxes.splice(0)) await sandbox.close();
  });
  const sandbox = async (options: SandboxOptions = {}) => {
    const started = await sandboxWithEnv(options);
    sandboxes.push(started.sandbox);
    return started;
  };
  return { terminals, sandbox };
}

/** An env whose only (default) profile is live and points at `gateway`: pay asks y/N at a terminal. */
export function liveProfileEnv(gateway: RunningSandbox, extra: Record<string, string> = {}): Record<string, string> {
  const env = isolatedEnv({ ...sandboxCodeEnv, ...extra });
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
  const { agentId, password } = sandboxCredentials;
  const profile = { baseUrl: gateway.baseUrl, agentId, password, live: true };
  writeFileSync(
    join(env.XDG_CONFIG_HOME!, 'agentpay', 'config.json'),
    JSON.stringify({ profiles: { default: profile } }),
    { mode: 0o600 },
  );
  return env;
}
