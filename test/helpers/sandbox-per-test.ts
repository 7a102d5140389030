import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { sandboxWithEnv } from './gateway-env.js';

/*
 * A sandbox for each no-loss test and the env to run the CLI against it, settling quickly;
 * where that env keeps its journal; a dynamic payment to make.
 */

let sandbox: RunningSandbox | undefined;

/** Closes the sandbox setUp started (after each test, or early to leave the gateway unreachable). */
export async function closeSandbox(): Promise<void> {
  await sandbox?.close();
  sandbox = undefined;
}

export async function setUp(options: Parameters<typeof sandboxWithEnv>[0] = {}) {
  const started = await sandboxWithEnv(options);
  sandbox = started.sandbox;
  // Settle quickly in tests: the backoff starts at 50 ms.
  return { sandbox: started.sandbox, env: { ...started.env, AGENTPAY_SETTLE_DELAY: '50' } };
}

export const journalOf = (env: Record<string, string>) => join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
export const payDynamic = ['pay', '--service', '101', '--account', 'player-42', '--invoice-id', '5002', '--json'];
