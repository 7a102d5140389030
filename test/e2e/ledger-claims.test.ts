import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimedBatch, Intent, IntentGuard, Ledger } from '../../src/ledger/ledger.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { isolatedEnv } from '../helpers/cli.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// The ledger's check-and-record as one step, through two ledgers of one store (two processes'
// views of a journal, two terminals' connections to a database). Each guard takes its time
// deciding, so that without the lock both would read the store before either wrote to it.

let server: PostgresServer;
const opened: Ledger[] = [];

beforeAll(async () => {
  server = await startPostgres();
}, 30_000);

afterAll(async () => {
  await Promise.all(opened.map((ledger) => ledger.close()));
  await server?.remove();
});

const intent = (transactionId: string, account: string): Intent => ({
  transactionId,
  gateway: 'https://gateway.test',
  agentId: '5120',
  service: '301',
  account,
  amount: '350.00',
  currency: 'KZT',
  invoiceId: '77001',
});

/** Refuses a purchase the ledger holds recent payments to the same account for; decides slowly. */
const slowGuard = (account: string): IntentGuard => ({
  since: new Date(Date.now() - 600_000),
  operator: undefined,
  sums: false,
  decide(recent) {
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // Busy: the event loop is held, as a long look-back would hold it.
    }
    const earlier = recent.filter((payment) => payment.intent.account === account);
    if (earlier.length > 0) throw new Error(`duplicate of ${earlier[0]!.intent.transactionId}`);
    return ['checked'];
  },
});

/** Two terminals' connections to a fresh database, with `setting` made the database's default. */
async function postgresPair(setting?: string): Promise<[Ledger, Ledger]> {
  const url = await freshDatabase(server);
  if (setting !== undefined) await sql(url, `ALTER DATABASE ${new URL(url).pathname.slice(1)} ${setting}`);
  const open = (operator: string) =>
    PostgresLedger.open(parseLedgerLocation(url, 'test') as never, {
      env: {},
      operator,
      stateDirectory: isolatedEnv().XDG_STATE_HOME!,
      note: () => undefined,
    });
  const pair: [Ledger, Ledger] = [await open('anna'), await open('boris')];
  opened.push(...pair);
  return pair;
}

const stores: { name: string; pair: () => Promise<[Ledger, Ledger]> }[] = [
  {
    name: 'the SQLite ledger',
    pair: async () => {
      const path = join(isolatedEnv().HOME!, 'ledger.sqlite');
      const open = (operator: string) =>
        SqliteLedger.open(parseLedgerLocation(path, 'test') as never, {
          by: { operator, host: 'test' },
          note: () => undefined,
        });
      const pair: [Ledger, Ledger] = [await open('anna'), await open('boris')];
      opened.push(...pair);
      return pair;
    },
  },
  {
    name: 'PostgreSQL',
    pair: () => postgresPair(),
  },
  {
    // The snapshot of a REPEATABLE READ transaction is older than the lock it waited for: the
    // claims run READ COMMITTED whatever the database says.
    name: 'PostgreSQL whose default isolation is repeatable read',
    pair: () => postgresPair("SET default_transaction_isolation = 'repeatable read'"),
  },
];

describe.each(stores)('check-and-record in one step, with $name', ({ pair }) => {
  it('two claims on one account at once: one is recorded, the other sees it and is refused', async () => {
    const [anna, boris] = await pair();
    const results = await Promise.allSettled([
      anna.recordIntent(intent('1001', '7770001'), { checkReplay: false, guard: slowGuard('7770001') }),
      boris.recordIntent(intent('1002', '7770001'), { checkReplay: false, guard: slowGuard('7770001') }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch(/duplicate of 100[12]/);
    const recorded = await anna.recentPayments({
      gateway: 'https://gateway.test',
      agentId: '5120',
      since: new Date(0),
      accounts: ['7770001'],
      operator: undefined,
    });
    expect(recorded).toHaveLength(1);
    // What the guard lifted is recorded with the intent.
    expect(recorded[0]!.intent.overrides).toEqual(['checked']);
  });

  it('claims of one process on other accounts go together, each weighed with those before it', async () => {
    const [anna] = await pair();
    const quick: IntentGuard = {
      ...slowGuard(''),
      decide: (recent) => (recent.some((payment) => payment.intent.account === '7770009') ? [] : ['first']),
    };
    const results = await Promise.all([
      anna.recordIntent(intent('2001', '7770009'), { checkReplay: false, guard: quick }),
      anna.recordIntent(intent('2002', '7770009'), { checkReplay: false, guard: quick }),
    ]);
    expect(results.map((result) => result.kind)).toEqual(['new', 'new']);
    const recorded = await anna.recentPayments({
      gateway: 'https://gateway.test',
      agentId: '5120',
      since: new Date(0),
      accounts: ['7770009'],
      operator: undefined,
    });
    expect(recorded.map((payment) => payment.intent.overrides ?? [])).toEqual([['first'], []]);
  });

  it('the same purchase again under its TransactionID is a retry, which no guard refuses', async () => {
    const [anna, boris] = await pair();
    await anna.recordIntent(intent('3001', '7770003'), { checkReplay: false });
    await anna.recordIntent(intent('3002', '7770003'), { checkReplay: false });
    const refusing: IntentGuard = {
      ...slowGuard(''),
      decide: () => {
        throw new Error('the guard was asked');
      },
    };
    expect((await boris.recordIntent(intent('3001', '7770003'), { checkReplay: true, guard: refusing })).kind).toBe(
      'retry',
    );
    const other = await boris.recordIntent(
      { ...intent('3001', '7770003'), amount: '351.00' },
      { checkReplay: true, guard: refusing },
    );
    expect(other.kind).toBe('conflict');
  });

  it('two reconcilers at once never hold one open transaction; what one let go unsettled the other takes', async () => {
    const [anna, boris] = await pair();
    for (const id of ['4001', '4002', '4003']) await anna.recordIntent(intent(id, `777${id}`), { checkReplay: false });
    const owner = { gateway: 'https://gateway.test', agentId: '5120' };
    const first = anna.claimOpen(owner, {})[Symbol.asyncIterator]();
    const held = (await first.next()) as IteratorYieldResult<ClaimedBatch>;
    expect(held.value.entries.map((entry) => entry.intent.transactionId)).toEqual(['4001', '4002', '4003']);
    const idsOf = async (ledger: Ledger) => {
      const ids: string[] = [];
      for await (const batch of ledger.claimOpen(owner, {})) {
        ids.push(...batch.entries.map((entry) => entry.intent.transactionId));
        await batch.done();
      }
      return ids;
    };
    expect(await idsOf(boris)).toEqual([]);
    const success = { ...unknownView({ transactionId: '4002' }, 'Status', 'success'), state: 'success' as const };
    void held.value.record({
      kind: 'outcome',
      ...owner,
      transactionId: '4002',
      at: new Date().toISOString(),
      source: 'reconcile',
      view: success,
    });
    expect(await held.value.done()).toEqual({ unrecorded: 0 });
    await first.return?.();
    expect(await idsOf(boris)).toEqual(['4001', '4003']);
  });
});
