import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { runCliReadOnly } from '../helpers/read-only-mount.js';

/**
 * A journal this machine cannot read or write is a local failure, never a refusal: exit 6,
 * the path and the errno code, and what was learned from the gateway still printed. Real
 * failures only: a read-only mount (EROFS), /dev/full (ENOSPC), a directory (EISDIR).
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

const journalOf = (env: Record<string, string>) => join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
const statusesReceived = (gateway: RunningSandbox) =>
  gateway.received.filter((form) => form.get('RequestType') === 'Status');
const payStatic = ['pay', '--service', '201', '--account', 'player-42', '--amount', '150.50', '--json'];

describe('reconcile with a journal on a read-only file system', () => {
  it('prints what the gateway said of each entry, then ends with EROFS and exit 6; a later run records it', async () => {
    const { sandbox, env } = await setUp({ faults: { failRate: 1 } });
    // An answer lost for good: the journal holds the intent, open.
    const paid = await runCli([...payStatic, '--settle-attempts', '0'], { env });
    expect(paid.code).toBe(3);
    const id = String(jsonLines(paid.stdout)[0]!.transactionId);
    sandbox.faults.failRate = 0;
    const journal = journalOf(env);
    const before = readFileSync(journal, 'utf8');

    const result = await runCliReadOnly(['reconcile', '--json'], { env, readOnly: [dirname(journal)] });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stdout)).toEqual([
      expect.objectContaining({ transactionId: id, state: 'success', status: '10' }),
    ]);
    const stderr = jsonLines(result.stderr);
    expect(stderr.at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot write the journal ${journal} (EROFS); 1 outcome learned from the gateway is printed on stdout but not recorded`,
        hint: expect.stringContaining('read-only'),
      }),
    });
    expect(stderr).toContainEqual({ note: 'reconciled 1: 1 success, 0 failed, 0 pending, 0 unknown' });
    expect(readFileSync(journal, 'utf8')).toBe(before);

    const human = await runCliReadOnly(['reconcile'], { env, readOnly: [dirname(journal)] });
    expect(human.code).toBe(6);
    expect(human.stdout).toContain(id);
    expect(human.stderr).toContain(
      `agentpay: cannot write the journal ${journal} (EROFS); 1 outcome learned from the gateway is printed above but not recorded`,
    );
    expect(human.stderr).not.toContain('internal error');

    const again = await runCli(['reconcile', '--json'], { env });
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout)).toEqual([expect.objectContaining({ transactionId: id, state: 'success' })]);
    expect((await runCli(['reconcile'], { env })).stderr).toContain('nothing to reconcile');
  });
});

describe('pay with a journal it cannot write', () => {
  it('a directory to be made on a read-only file system: EROFS (not ENOENT), exit 6, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const mountPoint = join(env.HOME!, 'read-only');
    mkdirSync(mountPoint);
    const journal = join(mountPoint, 'agentpay', 'journal.jsonl');
    const result = await runCliReadOnly([...payStatic, '--journal', journal], { env, emptyReadOnly: [mountPoint] });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot write the journal ${journal} (EROFS); no payment was sent`,
      }),
    });
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });

  it('a full disk (/dev/full, ENOSPC): exit 6, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const result = await runCli([...payStatic, '--journal', '/dev/full'], { env });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        message: 'cannot write the journal /dev/full (ENOSPC); no payment was sent',
        hint: expect.stringContaining('full'),
      }),
    });
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});

describe('a journal that cannot be read (a directory where the file should be: EISDIR)', () => {
  it('history: exit 6 naming the path and EISDIR', async () => {
    const { env } = await setUp();
    const result = await runCli(['history', '--journal', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`agentpay: cannot read the journal ${env.HOME} (EISDIR)`);
    expect(result.stderr).not.toContain('internal error');
  });

  it('reconcile: exit 6 before asking the gateway anything', async () => {
    const { sandbox, env } = await setUp();
    const result = await runCli(['--json', 'reconcile', '--journal', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(jsonLines(result.stderr).at(-1)).toEqual({
      error: expect.objectContaining({
        exitCode: 6,
        type: 'LocalStorageError',
        message: `cannot read the journal ${env.HOME} (EISDIR)`,
      }),
    });
    expect(statusesReceived(sandbox)).toHaveLength(0);
  });

  it('pay --txn-id (the replay guard reads the journal first): exit 6, nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const result = await runCli([...payStatic, '--txn-id', '424242', '--journal', env.HOME!], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`cannot read the journal ${env.HOME} (EISDIR)`);
    expect(paymentsReceived(sandbox)).toHaveLength(0);
  });
});
