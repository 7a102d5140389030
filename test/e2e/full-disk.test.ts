import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeBulkSandbox, dynamicRows, ordersFile, setUp } from '../helpers/bulk-orders.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { mountTinyDisk, skipWithoutRoot, type TinyDisk } from '../helpers/full-disk.js';
import { paymentsReceived } from '../helpers/gateway-env.js';

/**
 * A full disk where agentpay writes a file of the user's choosing (docs/reliability.md): a tmpfs
 * of its own, filled to the last page. A bulk run's --results there is exit 6 with nothing sent
 * and nothing left on the disk; --record keeps a cassette whole or not at all, so a replay of the
 * directory reads the ones before. Mounting takes root: without it the file is skipped (not in CI).
 */
const skipped = skipWithoutRoot();
let disk: TinyDisk | undefined;

beforeAll(() => {
  if (!skipped) disk = mountTinyDisk();
});
afterAll(() => disk?.remove());
afterEach(async () => {
  await closeBulkSandbox();
  // Emptied for the next test: the filler, and whatever a test left (a test that fails on leftovers too).
  if (disk !== undefined) for (const name of readdirSync(disk.path)) rmSync(join(disk.path, name), { recursive: true });
});

describe.skipIf(skipped)('pay --from-file with --results on a full disk (needs root to mount a tmpfs)', () => {
  it('no room for the lock: exit 6 naming the results file and ENOSPC, nothing sent, nothing left', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile(dynamicRows(2));
    const results = join(disk!.path, 'orders.results.csv');
    disk!.fill();
    const paid = await runCli(['pay', '--from-file', orders, '--results', results, '--yes'], { env });
    expect(paid.code, paid.stderr).toBe(6);
    expect(paid.stderr).toContain(`agentpay: cannot write the results file ${results} (ENOSPC); no payment was sent`);
    expect(paid.stderr).not.toContain('internal error');
    expect(paymentsReceived(sandbox)).toEqual([]);
    expect(readdirSync(disk!.path)).toEqual(['filler']);
  });

  it('room for the lock, not the results: exit 6, nothing sent, neither the lock nor a temporary file left', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile(dynamicRows(2));
    const results = join(disk!.path, 'orders.results.csv');
    disk!.fill(4096);
    const paid = await runCli(['--json', 'pay', '--from-file', orders, '--results', results, '--yes'], { env });
    expect(paid.code, paid.stderr).toBe(6);
    expect(JSON.parse(paid.stderr.trim().split('\n').at(-1)!)).toMatchObject({
      error: { exitCode: 6, type: 'LocalStorageError', message: `cannot write the results file ${results} (ENOSPC)` },
    });
    expect(paymentsReceived(sandbox)).toEqual([]);
    expect(readdirSync(disk!.path)).toEqual(['filler']);
  });
});

describe.skipIf(skipped)('--record on a full disk (needs root to mount a tmpfs)', () => {
  it('leaves no cassette cut short: a replay of the directory reads the ones recorded before', async () => {
    const env = isolatedEnv();
    const cassettes = join(disk!.path, 'cassettes');
    mkdirSync(cassettes);
    const check = ['check', '--service', '101', '--account', '7011234567'];
    const first = await runCli(['--sandbox', '--record', cassettes, ...check], { env });
    expect(first.code, first.stderr).toBe(0);
    disk!.fill();
    const second = await runCli(['--sandbox', '--record', cassettes, ...check], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `warning: a recording could not be written (${join(cassettes, '0002-AccountCheck-101.json')}: ENOSPC)`,
    );
    expect(readdirSync(cassettes)).toEqual(['0001-AccountCheck-101.json']);
    const replayed = await runCli(['--replay', cassettes, ...check], { env });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(first.stdout);
    expect(readFileSync(join(cassettes, '0001-AccountCheck-101.json'), 'utf8')).toMatch(/\}\n$/);
  });
});
