import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { envFor } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, ledgerRecords, sandboxLedger } from '../helpers/ledger-file.js';
import { freshDatabase, sql } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// Moving a terminal's ledger into the team ledger and back, choosing the ledger (--sandbox's
// own, the SQLite file default), and finding its password as psql does.
const rig = teamLedgerRig();
const { terminal, payStatic } = rig;

describe('a team ledger on PostgreSQL: moving in, choosing it, its password', () => {
  it("moves a terminal's ledger in once, as journal lines (open ones stay open for reconcile), and exports it back", async () => {
    const ledger = await freshDatabase(rig.server);
    const local = envFor(rig.sandbox, { AGENTPAY_SETTLE_DELAY: '20' });
    // The terminal's payments are set-up, in-process; `ledger export` and `import` are the bin's.
    expect((await runInProcess(payStatic('moving-in-1'), local)).code).toBe(0);
    rig.sandbox.faults.dropAfterCommit = 1;
    expect((await runInProcess(payStatic('moving-in-2'), { ...local, AGENTPAY_SETTLE_ATTEMPTS: '0' })).code).toBe(3);
    // The terminal's SQLite ledger goes out as journal lines, and in to the team's.
    const journal = join(local.HOME!, 'terminal.jsonl');
    const out = await runCli(['ledger', 'export'], { env: local });
    expect(out.code, out.stderr).toBe(0);
    writeFileSync(journal, out.stdout);

    const first = await runCli(['--json', 'ledger', 'import', journal], { env: terminal(ledger, 'ann') });
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout)[0]).toMatchObject({ added: 4, conflicts: [] });
    const second = await runCli(['--json', 'ledger', 'import', journal], { env: terminal(ledger, 'ann') });
    expect(jsonLines(second.stdout)[0]).toMatchObject({ added: 0 });
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_records')).toEqual([{ n: 4 }]);

    const reconciled = await runCli(['--json', 'reconcile'], { env: terminal(ledger, 'ann') });
    expect(jsonLines(reconciled.stdout).map((line) => [line.account, line.state])).toEqual([
      ['moving-in-2', 'success'],
    ]);

    const exported = await runCli(['ledger', 'export'], { env: terminal(ledger, 'ann') });
    const records = jsonLines(exported.stdout);
    expect(
      records.map((record) => [record.kind, record.account ?? (record.view as Record<string, unknown>).account]),
    ).toEqual([
      ['intent', 'moving-in-1'],
      ['outcome', 'moving-in-1'],
      ['intent', 'moving-in-2'],
      ['outcome', 'moving-in-2'],
      ['outcome', 'moving-in-2'],
    ]);
  });

  it('keeps --sandbox out of it (its own ledger), and a SQLite file ledger is still the default', async () => {
    const ledger = await freshDatabase(rig.server);
    const env = terminal(ledger, 'ann');
    const paid = await runCli(['--sandbox', '--json', ...payStatic('embedded')], { env });
    expect(paid.code).toBe(0);
    expect(await sql(ledger, "SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'agentpay%'")).toEqual([
      { n: 0 },
    ]);
    const intentsIn = async (path: string) =>
      (await ledgerRecords(path)).flatMap((record) => (record.kind === 'intent' ? [record.account] : []));
    expect(await intentsIn(sandboxLedger(env))).toEqual(['embedded']);
    // Nor does play money come in by `ledger import` of the sandbox's books.
    const played = join(env.HOME!, 'played.jsonl');
    writeFileSync(played, (await runInProcess(['--sandbox', 'ledger', 'export'], env)).stdout);
    const imported = await runCli(['--json', 'ledger', 'import', played], { env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(jsonLines(imported.stdout)[0]).toMatchObject({ added: 0, playMoney: 2 });
    expect(imported.stderr).toContain('2 records of play money (the gateways sandbox and replay)');
    expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);
    expect(existsSync(defaultLedger(env))).toBe(false);
    const { AGENTPAY_LEDGER: _ledger, ...fileEnv } = env;
    expect((await runCli(payStatic('file'), { env: fileEnv })).code).toBe(0);
    expect(await intentsIn(defaultLedger(env))).toEqual(['file']);
  });

  it('reads the password from ~/.pgpass when the URL leaves it out, as psql does', async () => {
    const ledger = new URL(await freshDatabase(rig.server));
    const env = terminal('', 'ann');
    writeFileSync(
      join(env.HOME!, '.pgpass'),
      `127.0.0.1:${ledger.port}:*:${ledger.username}:${rig.server.password}\n`,
      { mode: 0o600 },
    );
    ledger.password = '';
    const result = await runCli(['--ledger', ledger.href, ...payStatic('pgpass')], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('Deprecation');
  });
});
