import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Intent, Ledger } from '../../src/ledger/ledger.js';
import { fallbackOf, keepWaiting } from '../../src/ledger/postgres/fallback.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import type { OutcomeRecord } from '../../src/ledger/records.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';
import { type TransactionState, unknownView } from '../../src/protocol/transaction-view.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// The team ledger's rules where terminals and reconcilers meet out of order, through the
// ledger itself (two "terminals" are two connections with their own operator), against a real server.
let server: PostgresServer;

beforeAll(async () => {
  server = await startPostgres();
}, 30_000);

afterAll(async () => {
  await server?.remove();
});

const opened: Ledger[] = [];
afterAll(async () => {
  await Promise.all(opened.map((ledger) => ledger.close()));
});

async function terminal(
  url: string,
  operator: string,
  stateDirectory = isolatedEnv().XDG_STATE_HOME!,
): Promise<PostgresLedger> {
  const ledger = await PostgresLedger.open(parseLedgerLocation(url, 'test') as never, {
    env: {},
    operator,
    stateDirectory,
    note: () => {},
  });
  opened.push(ledger);
  return ledger;
}

/** A gateway by URL in its one form: the team ledger takes no play money (closed-gaps-schema.ts). */
const gateway = 'http://127.0.0.1:9';

const intent = (transactionId: string, account = '7011234567'): Intent => ({
  transactionId,
  gateway,
  agentId: '1001',
  service: '201',
  account,
  amount: '150.00',
  currency: 'KZT',
  invoiceId: null,
});

function outcome(
  transactionId: string,
  state: TransactionState,
  at = new Date().toISOString(),
  message = 'answer',
): OutcomeRecord {
  const view = {
    ...unknownView(
      { transactionId, service: '201', account: '7011234567', amount: '150.00', currency: 'KZT' },
      'Payment',
      message,
    ),
    state,
  };
  return { kind: 'outcome', transactionId, gateway, agentId: '1001', at, source: 'payment', view };
}

async function stateOf(ledger: Ledger, transactionId: string): Promise<string | undefined> {
  for await (const entry of await ledger.entries({}))
    if (entry.intent.transactionId === transactionId) return entry.outcome?.view.state ?? 'none';
  return undefined;
}

const openIds = async (url: string) =>
  (
    await sql(
      url,
      'SELECT t.transaction_id FROM agentpay_open o JOIN agentpay_transactions t ON t.seq = o.transaction_seq',
    )
  ).map((row) => row.transaction_id);

describe('the team ledger when answers arrive out of order', () => {
  it('a "not sent" delivered late after a retry elsewhere was paid: success stands, and nothing is left open', async () => {
    const url = await freshDatabase(server);
    const [ann, bob] = [await terminal(url, 'ann'), await terminal(url, 'bob')];
    const first = await ann.recordIntent(intent('900001'), { checkReplay: true });
    const retry = await bob.recordIntent(intent('900001'), { checkReplay: true });
    expect([first.kind, retry.kind]).toEqual(['new', 'retry']);
    await bob.recordOutcome(outcome('900001', 'success'), retry.kind === 'retry' ? retry.attempt : undefined);
    await ann.recordOutcome(
      outcome('900001', 'failed', undefined, 'not sent'),
      first.kind === 'new' ? first.attempt : undefined,
    );
    expect(await stateOf(ann, '900001')).toBe('success');
    expect(await openIds(url)).toEqual([]);
  });

  it('a "not sent" for an older attempt never closes a retry whose Payment may be out', async () => {
    const url = await freshDatabase(server);
    const [ann, bob] = [await terminal(url, 'ann'), await terminal(url, 'bob')];
    const first = await ann.recordIntent(intent('900002'), { checkReplay: true });
    await bob.recordIntent(intent('900002'), { checkReplay: true });
    await ann.recordOutcome(
      outcome('900002', 'failed', undefined, 'not sent'),
      first.kind === 'new' ? first.attempt : undefined,
    );
    expect(await openIds(url)).toEqual(['900002']);
    expect(await stateOf(bob, '900002')).toBe('none');
  });

  it("a terminal's answer is not held up by a reconciler's claim on the same transaction", async () => {
    const url = await freshDatabase(server);
    const [ann, cron] = [await terminal(url, 'ann'), await terminal(url, 'cron')];
    const made = await ann.recordIntent(intent('900003'), { checkReplay: true });
    const batches = cron.claimOpen({ gateway, agentId: '1001' }, {})[Symbol.asyncIterator]();
    const claimed = await batches.next();
    expect(claimed.done).toBe(false);
    // Were it to wait for the claim, this would never return before done() below.
    await ann.recordOutcome(outcome('900003', 'success'), made.kind === 'new' ? made.attempt : undefined);
    expect(await stateOf(ann, '900003')).toBe('success');
    await claimed.value!.done();
    await batches.return?.();
  });

  it('delivers kept outcomes past one the database refuses, which is set aside', async () => {
    const url = await freshDatabase(server);
    const env = isolatedEnv({ AGENTPAY_LEDGER: url });
    const ann = await terminal(url, 'ann', env.XDG_STATE_HOME);
    await ann.recordIntent(intent('900004'), { checkReplay: true });
    await ann.recordIntent(intent('900005'), { checkReplay: true });
    const shown = parseLedgerLocation(url, 'test').shown;
    const where = fallbackOf(join(env.XDG_STATE_HOME!, 'agentpay'), shown);
    const base = { operator: 'ann', host: 'desk-1' };
    keepWaiting(where, [
      { ...base, recordId: '00000000-0000-4000-8000-000000000004', record: outcome('900004', 'success', 'not a time') },
      {
        ...base,
        recordId: '00000000-0000-4000-8000-000000000005',
        record: outcome('900005', 'success', undefined, 'Успех\u0000'),
      },
    ]);
    const result = await runCli(['--json', 'history'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/refused 1 outcome kept on this machine .*set aside in .*undeliverable\.jsonl/);
    expect(jsonLines(result.stdout).map((line) => [line.transactionId, line.state, line.message])).toEqual([
      ['900004', 'unknown', 'no answer recorded: run agentpay reconcile'],
      ['900005', 'success', 'Успех\uFFFD'],
    ]);
  });

  it('leaves out every record of a journal that used a TransactionID the ledger holds for another purchase', async () => {
    const url = await freshDatabase(server);
    const bob = await terminal(url, 'bob');
    await bob.recordIntent(intent('900006', 'bob-account'), { checkReplay: true });
    const journal = join(isolatedEnv().HOME!, 'journal.jsonl');
    const annIntent = { kind: 'intent', ...intent('900006', 'ann-account'), at: '2026-11-23T09:00:00.000Z' };
    writeFileSync(
      journal,
      `${[annIntent, outcome('900006', 'failed', '2026-11-23T09:00:01.000Z')].map((record) => JSON.stringify(record)).join('\n')}\n`,
    );
    const result = await runCli(['--json', 'ledger', 'import', journal], {
      env: isolatedEnv({ AGENTPAY_LEDGER: url }),
    });
    expect(jsonLines(result.stdout)[0]).toMatchObject({ added: 0, conflicts: ['900006'] });
    expect(await openIds(url)).toEqual(['900006']);
    expect(await stateOf(bob, '900006')).toBe('none');
  });

  it('history --since starts a transaction at its first attempt in the window, as the journal does', async () => {
    const url = await freshDatabase(server);
    const journal = join(isolatedEnv().HOME!, 'journal.jsonl');
    const old = { kind: 'intent', ...intent('900007'), at: '2020-01-01T00:00:00.000Z' };
    writeFileSync(
      journal,
      `${[old, outcome('900007', 'pending', '2020-01-01T00:00:01.000Z')].map((record) => JSON.stringify(record)).join('\n')}\n`,
    );
    const env = isolatedEnv({ AGENTPAY_LEDGER: url });
    expect((await runCli(['ledger', 'import', journal], { env })).code).toBe(0);
    const started = Date.now();
    await (await terminal(url, 'ann')).recordIntent(intent('900007'), { checkReplay: true });
    const recent = jsonLines((await runCli(['--json', 'history', '--since', '1h'], { env })).stdout);
    expect(recent.map((line) => line.state)).toEqual(['unknown']);
    expect(Date.parse(String(recent[0]?.recordedAt))).toBeGreaterThanOrEqual(started - 1000);
    const all = jsonLines((await runCli(['--json', 'history'], { env })).stdout);
    expect(all.map((line) => [line.recordedAt, line.state])).toEqual([['2020-01-01T00:00:00.000Z', 'pending']]);
  });

  it('a TLS file that cannot be read is the ledger unreachable (exit 4), not an internal error', async () => {
    const url = new URL(await freshDatabase(server));
    url.search = '?sslmode=require&sslrootcert=/nonexistent/root.crt';
    const result = await runCli(['--ledger', url.href, 'history'], { env: isolatedEnv() });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('cannot read its TLS files: ENOENT');
    expect(result.stderr).not.toContain(server.password);
  });
});
