import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// One gateway, one name (protocol/gateway-identity.ts): `http://127.0.0.1:P`, `HTTP://127.0.0.1:P/`
// and `http://LOCALHOST:P` are one gateway to the ledger, SQLite and PostgreSQL alike, so
// the duplicate check and the replay guard see every payment made through it; old spellings
// are read under the one name when a journal is imported, or migrated (PostgreSQL). The payment each test
// starts from, made under the one name, is paid in-process (in-process-run.ts); every other spelling's
// run goes through the bin.
const rig = teamLedgerRig();
const { payStatic } = rig;

const spellingsOf = (baseUrl: string) => {
  const { port } = new URL(baseUrl);
  return [`http://127.0.0.1:${port}`, `HTTP://127.0.0.1:${port}/`, `http://LOCALHOST:${port}`];
};

/** A terminal on the local (SQLite) ledger, or on a fresh team ledger, its base URL spelled as given. */
type Terminal = (baseUrl: string) => Record<string, string>;
const onLocal = (): Terminal => {
  const env = envFor(rig.sandbox, { AGENTPAY_SETTLE_DELAY: '20' });
  return (baseUrl) => ({ ...env, AGENTPAY_BASE_URL: baseUrl });
};
const onPostgres = async (): Promise<Terminal> => {
  const ledger = await freshDatabase(rig.server);
  const env = rig.terminal(ledger, 'ann');
  return (baseUrl) => ({ ...env, AGENTPAY_BASE_URL: baseUrl });
};

describe.each([
  ['the local ledger', onLocal],
  ['PostgreSQL', onPostgres],
])('one gateway under three spellings, on %s', (_, ledgerOf) => {
  it('one top-up paid under each within the duplicate window: the second and third refused, one Payment sent', async () => {
    const terminal = await ledgerOf();
    const account = `spelled-${Math.random().toString(36).slice(2, 10)}`;
    const [first, ...others] = spellingsOf(rig.sandbox.baseUrl);
    expect((await runInProcess(payStatic(account), terminal(first!))).code).toBe(0);
    for (const spelling of others) {
      const again = await runCli(payStatic(account), { env: terminal(spelling) });
      expect(again.code, spelling).toBe(7);
      expect(again.stderr.replaceAll('\n', ' ')).toContain('refused as a duplicate top-up');
    }
    expect(rig.paymentsFor(account)).toHaveLength(1);
  });

  it('a TransactionID used for one purchase is refused for another under another spelling', async () => {
    const terminal = await ledgerOf();
    const [first, second, third] = spellingsOf(rig.sandbox.baseUrl);
    const account = `replayed-${Math.random().toString(36).slice(2, 10)}`;
    const paid = await runInProcess(['--json', ...payStatic(account)], terminal(first!));
    expect(paid.code, paid.stderr).toBe(0);
    const transactionId = String(jsonLines(paid.stdout)[0]!.transactionId);
    for (const spelling of [second!, third!]) {
      const other = await runCli([...payStatic(`${account}-other`), '--txn-id', transactionId], {
        env: terminal(spelling),
      });
      expect(other.code, spelling).toBe(2);
      expect(other.stderr).toContain(`transaction ${transactionId} was already used`);
    }
    expect(rig.paymentsFor(`${account}-other`)).toHaveLength(0);
  });
});

describe('a journal written with old spellings', () => {
  it('is imported under the one name: history --gateway finds them, the duplicate check weighs them', async () => {
    const [first, second, third] = spellingsOf(rig.sandbox.baseUrl);
    const account = `old-journal-${Math.random().toString(36).slice(2, 10)}`;
    const earlier = onLocal();
    expect((await runInProcess(payStatic(account), earlier(first!))).code).toBe(0);
    // As an older agentpay wrote it: the base URL as it was typed, in a journal file.
    const exported = await runInProcess(['ledger', 'export'], earlier(first!));
    expect(exported.code, exported.stderr).toBe(0);
    const journal = join(earlier(first!).HOME!, 'journal.jsonl');
    writeFileSync(journal, exported.stdout.replaceAll(`"gateway":"${first}"`, `"gateway":"${second}"`));
    expect(readFileSync(journal, 'utf8')).toContain(`"gateway":"${second}"`);
    const terminal = onLocal();
    const imported = await runCli(['ledger', 'import', journal], { env: terminal(third!) });
    expect(imported.code, imported.stderr).toBe(0);
    const again = await runCli(payStatic(account), { env: terminal(third!) });
    expect(again.code).toBe(7);
    expect(again.stderr.replaceAll('\n', ' ')).toContain('refused as a duplicate top-up');
    expect(rig.paymentsFor(account)).toHaveLength(1);
    const history = await runCli(['--json', 'history', '--gateway', third!], { env: terminal(first!) });
    expect(jsonLines(history.stdout).map((entry) => [entry.account, entry.gateway])).toEqual([[account, first]]);
  });
});

describe('a team ledger written with old spellings', () => {
  it('migrates: each spelling to the one name, a TransactionID held twice kept apart and listed, no record lost', async () => {
    const ledger = await freshDatabase(rig.server);
    const terminal = (baseUrl: string) => rig.terminal(ledger, 'ann', { AGENTPAY_BASE_URL: baseUrl });
    const [identity, upper, localhost] = spellingsOf(rig.sandbox.baseUrl);
    const pay = async (account: string, extra: string[] = []) => {
      const paid = await runInProcess(['--json', ...payStatic(account, extra)], terminal(identity!));
      expect(paid.code, paid.stderr).toBe(0);
      return String(jsonLines(paid.stdout)[0]!.transactionId);
    };
    // What an older agentpay left: payments under the spellings typed, and one TransactionID that
    // its replay guard let pay two purchases, under two spellings of one gateway.
    // Without migration 8's checks of the one spelling, as before it (each pay applies it again).
    const withoutSpellingChecks = () =>
      sql(
        ledger,
        `ALTER TABLE agentpay_transactions DROP CONSTRAINT IF EXISTS agentpay_transactions_one_spelling;
         ALTER TABLE agentpay_approvals DROP CONSTRAINT IF EXISTS agentpay_approvals_one_spelling;
         DELETE FROM agentpay_schema_migrations WHERE version >= 8`,
      );
    const respell = async (account: string, spelling: string) => {
      await withoutSpellingChecks();
      await sql(
        ledger,
        `BEGIN; ALTER TABLE agentpay_transactions DISABLE TRIGGER agentpay_transactions_append_only;
         UPDATE agentpay_transactions SET gateway = '${spelling}' WHERE account = '${account}';
         ALTER TABLE agentpay_transactions ENABLE TRIGGER agentpay_transactions_append_only; COMMIT`,
      );
    };
    await pay('mig-upper');
    await respell('mig-upper', upper!);
    await pay('mig-localhost');
    await respell('mig-localhost', localhost!);
    const twice = await pay('mig-twice-first');
    await respell('mig-twice-first', upper!);
    await pay('mig-twice-second', ['--txn-id', twice]);
    const [agentId] = (await sql<{ agent_id: string }>(ledger, 'SELECT agent_id FROM agentpay_transactions')).map(
      (row) => row.agent_id,
    );
    await withoutSpellingChecks();
    await sql(
      ledger,
      `INSERT INTO agentpay_approvals (gateway, agent_id, transaction_id, service, account, amount, currency, needs,
         requested_by, requested_at, expires_at)
       VALUES ($1, $2, '77000001', '201', 'mig-approval', '150.00', 'KZT', '{asked}', 'ann', now(), now() + interval '1 hour')`,
      [localhost, agentId],
    );
    await sql(
      ledger,
      'DROP TABLE agentpay_gateway_spellings; DELETE FROM agentpay_schema_migrations WHERE version >= 7',
    );
    const records = await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_records');

    expect((await runCli(['ledger', 'migrate'], { env: terminal(localhost!) })).code).toBe(0);
    expect(await sql(ledger, 'SELECT account, gateway FROM agentpay_transactions ORDER BY seq')).toEqual([
      { account: 'mig-upper', gateway: identity },
      { account: 'mig-localhost', gateway: identity },
      // The same TransactionID, another purchase: not merged into the other, kept as it was made.
      { account: 'mig-twice-first', gateway: upper },
      { account: 'mig-twice-second', gateway: identity },
    ]);
    expect(await sql(ledger, 'SELECT gateway FROM agentpay_approvals')).toEqual([{ gateway: identity }]);
    expect(await sql(ledger, 'SELECT spelling, gateway, transaction_id FROM agentpay_gateway_spellings')).toEqual([
      { spelling: upper, gateway: identity, transaction_id: twice },
    ]);
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_records')).toEqual(records);
    await expect(sql(ledger, "UPDATE agentpay_transactions SET account = 'x'")).rejects.toThrow(/append-only/);

    // The migrated payments weigh in the duplicate check under any spelling.
    const again = await runCli(payStatic('mig-upper'), { env: terminal(localhost!) });
    expect(again.code).toBe(7);
    expect(again.stderr.replaceAll('\n', ' ')).toContain('refused as a duplicate top-up');
    expect(rig.paymentsFor('mig-upper')).toHaveLength(1);
  });
});
