import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { mountTinyDisk, skipWithoutRoot, type TinyDisk } from '../helpers/full-disk.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';
import { runCliReadOnly } from '../helpers/read-only-mount.js';
import { skipWithout } from '../helpers/system-tools.js';

/**
 * A ledger this machine cannot read or write is a local failure, never a refusal: exit 6,
 * the path and the errno code, and what was learned from the gateway still printed. Real
 * failures only: a read-only mount (EROFS), a full tmpfs (ENOSPC), a directory (EISDIR).
 */
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function setUp(
  options: Parameters<typeof sandboxWithEnv>[0] = {},
): Promise<{ sandbox: RunningSandbox; env: Record<string, string> }> {
  const started = await sandboxWithEnv(options);
  sandbox = started.sandbox;
  return { sandbox: started.sandbox, env: { ...started.env, AGENTPAY_SETTLE_DELAY: '50' } };
}

const statusesReceived = (gateway: RunningSandbox) =>
  gateway.received.filter((form) => form.get('RequestType') === 'Status');
const payStatic = ['pay', '--service', '201', '--account', 'player-42', '--amount', '150.50', '--json'];

/** A read-only mount in a mount namespace of its own (test/helpers/read-only-mount.ts) takes unshare. */
const noUnshare = skipWithout('unshare');

describe.skipIf(noUnshare)('reconcile with a ledger on a read-only file system (needs unshare)', () => {
  it('ends with EROFS and exit 6 before asking the gateway (SQLite cannot open it); a later run records it', async () => {
    const { sandbox, env } = await setUp({ faults: { failRate: 1 } });
    // An answer lost for good: the ledger holds the intent, open.
    const paid = await runCli([...payStatic, '--settle-attempts', '0'], { env });
    expect(paid.code).toBe(3);
    const id = String(jsonLines(paid.stdout)[0]!.transactionId);
    sandbox.faults.failRate = 0;
    const ledger = defaultLedger(env);
    const before = await ledgerRecords(ledger);
    const asked = statusesReceived(sandbox).length;

    const result = await runCliReadOnly(['reconcile', '--json'], { env, readOnly: [dirname(ledger)] });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot open the ledger ${ledger} (EROFS)`,
        hint: expect.stringContaining('read-only'),
      }),
    });
    const human = await runCliReadOnly(['reconcile'], { env, readOnly: [dirname(ledger)] });
    expect(human.code).toBe(6);
    expect(human.stderr).toContain(`agentpay: cannot open the ledger ${ledger} (EROFS)`);
    expect(human.stderr).not.toContain('internal error');
    // Nothing asked, so nothing learned that could be lost; the ledger as it was.
    expect(statusesReceived(sandbox)).toHaveLength(asked);
    expect(await ledgerRecords(ledger)).toEqual(before);

    const again = await runCli(['reconcile', '--json'], { env });
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout)).toEqual([expect.objectContaining({ transactionId: id, state: 'success' })]);
    expect((await runCli(['reconcile'], { env })).stderr).toContain('nothing to reconcile');
  });
});

describe.skipIf(noUnshare)('pay with a ledger it cannot write (needs unshare)', () => {
  it('a directory to be made on a read-only file system: EROFS (not ENOENT), exit 6, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const mountPoint = join(env.HOME!, 'read-only');
    mkdirSync(mountPoint);
    const ledger = join(mountPoint, 'agentpay', 'ledger.sqlite');
    const result = await runCliReadOnly([...payStatic, '--ledger', ledger], { env, emptyReadOnly: [mountPoint] });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot open the ledger ${ledger} (EROFS); no payment was sent`,
      }),
    });
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});

/** A tmpfs of its own, filled (test/helpers/full-disk.ts); mounting takes root, else skipped (not in CI). */
const noRoot = skipWithoutRoot();
let disk: TinyDisk | undefined;
beforeAll(() => {
  if (!noRoot) disk = mountTinyDisk();
});
afterAll(() => disk?.remove());

describe.skipIf(noRoot)('pay with the ledger on a full disk (needs root to mount a tmpfs)', () => {
  afterEach(() => {
    for (const name of readdirSync(disk!.path)) rmSync(join(disk!.path, name), { recursive: true });
  });

  it('a ledger made before the disk filled: exit 6 with ENOSPC, nothing sent, the ledger as it was', async () => {
    const { sandbox, env } = await setUp();
    const ledger = join(disk!.path, 'ledger.sqlite');
    expect((await runCli([...payStatic, '--ledger', ledger], { env })).code).toBe(0);
    const before = await ledgerRecords(ledger);
    disk!.fill();
    const result = await runCli([...payStatic, '--ledger', ledger], { env });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot open the ledger ${ledger} (ENOSPC); no payment was sent`,
        hint: expect.stringContaining('full'),
      }),
    });
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    rmSync(join(disk!.path, 'filler'));
    expect(await ledgerRecords(ledger)).toEqual(before);
  });
});

describe('a ledger that cannot be read (a directory where the file should be: EISDIR)', () => {
  it('history: exit 6 naming the path and EISDIR', async () => {
    const { env } = await setUp();
    const result = await runCli(['history', '--ledger', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`agentpay: cannot read the ledger ${env.HOME} (EISDIR)`);
    expect(result.stderr).not.toContain('internal error');
  });

  it('reconcile: exit 6 before asking the gateway anything', async () => {
    const { sandbox, env } = await setUp();
    const result = await runCli(['--json', 'reconcile', '--ledger', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot read the ledger ${env.HOME} (EISDIR)`,
      }),
    });
    expect(statusesReceived(sandbox)).toHaveLength(0);
  });

  it('pay --txn-id (the replay guard reads the ledger first): exit 6, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const result = await runCli([...payStatic, '--txn-id', '424242', '--ledger', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`cannot read the ledger ${env.HOME} (EISDIR)`);
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});
