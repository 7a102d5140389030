import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, collectOutput, spawnAgentpay } from './cli.js';
import { sandboxWithEnv } from './gateway-env.js';

/*
 * `pay --from-file` through the bin, for the test/e2e/bulk-pay-*.test.ts files: a sandbox per
 * test (settling quickly), order files in fresh temp folders, and the bin started on one.
 */

let sandbox: RunningSandbox | undefined;

/** Closes the sandbox setUp started (after each test). */
export async function closeBulkSandbox(): Promise<void> {
  await sandbox?.close();
  sandbox = undefined;
}

export async function setUp(options: Parameters<typeof sandboxWithEnv>[0] = {}) {
  const started = await sandboxWithEnv(options);
  sandbox = started.sandbox;
  return { sandbox: started.sandbox, env: { ...started.env, AGENTPAY_SETTLE_DELAY: '20' } };
}

export const folder = () => mkdtempSync(join(tmpdir(), 'agentpay-bulk-'));
export function ordersFile(lines: string[], name = 'orders.csv'): string {
  const path = join(folder(), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
/** n rows of the sandbox's dynamic service 101 (voucher 5002, 2497.00), one account each. */
export const dynamicRows = (n: number, prefix = 'acc') => [
  'key,service,account,invoice-id',
  ...Array.from({ length: n }, (_, i) => `K${i + 1},101,${prefix}-${i + 1},5002`),
];
export const resultsOf = (orders: string) => orders.replace(/\.csv$/, '.results.csv');

/** Starts the bin paying `orders`; resolves with its output once it closes. */
export function startBulk(orders: string, env: Record<string, string>, extra: string[] = [], nodeArgs: string[] = []) {
  const child = spawnAgentpay(['pay', '--from-file', orders, '--yes', '--json', ...extra], { env, nodeArgs });
  child.stdin?.end();
  const done = new Promise<CliResult>((resolve, reject) => collectOutput(child, resolve, reject));
  return { child, done };
}
