import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { defaultLedger, sandboxLedger, seedLedger } from '../helpers/ledger-file.js';

/**
 * Play money's books (docs/replay.md, docs/sandbox.md): a replay's miss answers at once and
 * leaves nothing open; what is open in the replay's or the sandbox's ledger is settled by
 * reconcile (or status) in the same mode; history, report and reconcile agree, and the real
 * ledger never sees any of it.
 */
const cassettes = join(mkdtempSync(join(tmpdir(), 'agentpay-play-')), 'cassettes');
const paid = ['pay', '--service', '201', '--account', '7011234567', '--amount', '100.00'];
const missed = ['pay', '--service', '201', '--account', '7011234567', '--amount', '55.00'];
const asked = 'Payment (Service=201, Account=7011234567, InvoiceId=, Amount=55.00, Currency=KZT)';

beforeAll(async () => {
  const recorded = await runCli(['--sandbox', '--record', cassettes, ...paid], { env: isolatedEnv() });
  expect(recorded.code, recorded.stderr).toBe(0);
});

/** What history, report and reconcile say of a play ledger, in the mode given. */
async function books(mode: string[], env: Record<string, string>) {
  const history = jsonLines((await runCli([...mode, 'history', '--json'], { env })).stdout);
  const report = jsonLines(
    (await runCli([...mode, 'report', '--date', 'today', '--by', 'state', '--json'], { env })).stdout,
  );
  return {
    history: history.map((line) => [line.transactionId, line.state, line.message]),
    report: report.filter((line) => line.kind === 'group').map((line) => [line.state, line.count]),
  };
}

describe('a replay miss', () => {
  it('answers at once (no Status), exit 2 naming what had no recording; closed as not sent in its ledger', async () => {
    const env = isolatedEnv();
    const miss = await runCli(['--replay', cassettes, '-v', ...missed, '--json'], { env });
    expect(miss.code, miss.stderr).toBe(2);
    expect(jsonLines(miss.stdout)).toEqual([]);
    expect(miss.stderr).toContain(`the replay has no recording of ${asked}: nothing was sent, nothing paid`);
    expect(miss.stderr).toContain('--record <dir>');
    // One exchange, the Payment: nothing polled a Status for 15 s.
    expect(miss.stderr.match(/→ POST \S+ (\w+)/g)?.map((line) => line.split(' ').at(-1))).toEqual(['Payment']);

    const { history, report } = await books(['--replay', cassettes], env);
    expect(history).toEqual([[expect.any(String), 'failed', `not sent: the replay has no recording of ${asked}`]]);
    expect(report).toEqual([['failed', 1]]);
    const reconcile = await runCli(['--replay', cassettes, 'reconcile'], { env });
    expect([reconcile.code, reconcile.stderr]).toEqual([0, expect.stringContaining('nothing to reconcile')]);
    expect(reconcile.stderr).not.toContain('another gateway');
    expect(existsSync(defaultLedger(env))).toBe(false);
  });

  it('a replay payment left open is closed by reconcile under --replay, as never made; the books agree', async () => {
    const env = isolatedEnv();
    const first = await runCli(['--replay', cassettes, ...missed, '--json'], { env });
    expect(first.code).toBe(2);
    const [{ transactionId: id }] = (await books(['--replay', cassettes], env)).history.map(([transactionId]) => ({
      transactionId: String(transactionId),
    })) as [{ transactionId: string }];
    // The same purchase again under its TransactionID (the safe retry): open until its answer.
    const retry = await runCli(['--replay', cassettes, ...missed, '--txn-id', id], { env });
    expect(retry.code).toBe(2);
    expect((await books(['--replay', cassettes], env)).history).toEqual([[id, 'unknown', expect.any(String)]]);

    const reconcile = await runCli(['--replay', cassettes, '--json', 'reconcile'], { env });
    expect(reconcile.code, reconcile.stderr).toBe(0);
    const neverMade = 'never made: the replay answered its Payment with no recording';
    expect(jsonLines(reconcile.stdout)).toEqual([expect.objectContaining({ transactionId: id, state: 'failed' })]);
    expect(await books(['--replay', cassettes], env)).toEqual({
      history: [[id, 'failed', neverMade]],
      report: [['failed', 1]],
    });
    const again = await runCli(['--replay', cassettes, 'reconcile'], { env });
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('nothing to reconcile')]);
    expect(existsSync(defaultLedger(env))).toBe(false);
  });
});

describe('the sandbox’s own ledger', () => {
  it('its open payments are settled by reconcile with --sandbox, there alone (status leaves a not-found to it)', async () => {
    const env = isolatedEnv();
    // Two intents a crash left without an answer, ten minutes ago: the sandbox never had them.
    const at = new Date(Date.now() - 600_000).toISOString();
    const intent = (transactionId: string) => ({
      kind: 'intent' as const,
      transactionId,
      gateway: 'sandbox',
      agentId: '1001',
      service: '201',
      account: '7011234567',
      amount: '100.00',
      currency: 'KZT',
      invoiceId: null,
      at,
    });
    await seedLedger(sandboxLedger(env), [intent('1795289214527950001'), intent('1795289214527950002')]);
    expect((await runCli(['--sandbox', 'status', '1795289214527950001'], { env })).code).toBe(3);
    const reconcile = await runCli(['--sandbox', 'reconcile'], { env });
    expect([reconcile.code, reconcile.stderr]).toEqual([
      0,
      expect.stringContaining('reconciled 2: 0 success, 2 failed'),
    ]);
    const { history } = await books(['--sandbox'], env);
    expect(history.map(([id, state]) => [id, state])).toEqual([
      ['1795289214527950001', 'failed'],
      ['1795289214527950002', 'failed'],
    ]);
    const again = await runCli(['--sandbox', 'reconcile'], { env });
    expect([again.code, again.stderr]).toEqual([0, expect.stringContaining('nothing to reconcile')]);
    expect(existsSync(defaultLedger(env))).toBe(false);
  });
});
