import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// `ledger import` of journals an earlier version wrote (test/fixtures/journals/README.md): every
// transaction reaches the team ledger with the state that version reported, once. `ledger import` runs
// through the bin; what it brought is read back by `history` in-process (in-process-run.ts), whose bin
// is tested in report.test.ts and in the last test here.
const rig = teamLedgerRig();
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'journals');

const latestOf = (rows: Record<string, unknown>[]) =>
  rows
    .map(({ gateway, agentId, transactionId, state, requestId, amount }) => ({
      gateway,
      agentId,
      transactionId,
      state,
      requestId,
      amount,
    }))
    .sort((a, b) => (`${a.gateway} ${a.transactionId}` < `${b.gateway} ${b.transactionId}` ? -1 : 1));

/** The transactions of a fixture's expected.json that a real gateway made (the rest are the sandbox's). */
const realOf = (name: string): Record<string, unknown>[] =>
  JSON.parse(readFileSync(join(fixtures, name, 'expected.json'), 'utf8')).filter(
    (row: { gateway: string }) => row.gateway !== 'sandbox',
  );
const playMoneyLeftOut = (records: number, journal: string) =>
  `${records} records of play money (the gateways sandbox and replay) in ${journal} left out: play money never enters these books`;

/** A terminal's env on each backend: its own SQLite ledger, or a fresh team ledger. */
const backends: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: 'the SQLite ledger', env: async () => isolatedEnv() },
  { name: 'PostgreSQL', env: async () => rig.terminal(await freshDatabase(rig.server), 'ann') },
];

describe.each(backends)('ledger import of journals written by earlier versions, into $name', ({ env: envOf }) => {
  for (const name of ['plain', 'compacted', 'interrupted']) {
    it(`brings every transaction of the ${name} journal over with its state, once`, async () => {
      const env = await envOf();
      const journal = join(fixtures, name, 'journal.jsonl');
      const first = await runCli(['--json', 'ledger', 'import', journal], { env });
      expect(first.code, first.stderr).toBe(0);
      // The sandbox's payments of that version stay out of these books: play money.
      const { playMoney } = jsonLines(first.stdout)[0] as { playMoney: number };
      expect(playMoney).toBeGreaterThan(0);
      expect(first.stderr).toBe(`${JSON.stringify({ warning: playMoneyLeftOut(playMoney, journal) })}\n`);
      expect(jsonLines(first.stdout)[0]).toMatchObject({ conflicts: [] });
      const second = await runCli(['--json', 'ledger', 'import', journal], { env });
      expect(jsonLines(second.stdout)[0]).toMatchObject({ added: 0, conflicts: [] });

      const history = await runInProcess(['--json', 'history'], env);
      expect(history.code, history.stderr).toBe(0);
      expect(latestOf(jsonLines(history.stdout))).toEqual(latestOf(realOf(name)));
    });
  }

  it('imports a compacted journal whose J a killed compaction had cut away: its other files', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'legacy-import-'));
    const journal = join(directory, 'journal.jsonl');
    cpSync(join(fixtures, 'compacted'), directory, { recursive: true });
    rmSync(journal);
    const env = await envOf();
    const imported = await runCli(['--json', 'ledger', 'import', journal], { env });
    expect(imported.code, imported.stderr).toBe(0);
    rmSync(directory, { recursive: true, force: true });
    const history = await runInProcess(['--json', 'history', '--state', 'pending'], env);
    expect(
      jsonLines(history.stdout)
        .map(({ amount }) => amount)
        .sort(),
    ).toEqual(['710.00', '730.00', '740.00']);
  });
});

describe("an old journal's play money", () => {
  it('goes into the sandbox’s own ledger with --sandbox, every transaction with its state', async () => {
    const env = isolatedEnv();
    const journal = join(fixtures, 'plain', 'journal.jsonl');
    const imported = await runCli(['--sandbox', '--json', 'ledger', 'import', journal], { env });
    expect([imported.code, imported.stderr]).toEqual([0, '']);
    expect(jsonLines(imported.stdout)[0]).toMatchObject({ conflicts: [], playMoney: 0 });
    const history = await runInProcess(['--sandbox', '--json', 'history'], env);
    const played = latestOf(jsonLines(history.stdout)).filter(({ gateway }) => gateway === 'sandbox');
    const expected = JSON.parse(readFileSync(join(fixtures, 'plain', 'expected.json'), 'utf8'));
    expect(played).toEqual(latestOf(expected).filter(({ gateway }) => gateway === 'sandbox'));
    expect(played.length).toBeGreaterThan(0);
  });
});

describe('an old journal at the default path', () => {
  it('is named with the command that imports it until it is imported, and refused as --ledger', async () => {
    const env = isolatedEnv();
    const journal = join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
    cpSync(join(fixtures, 'plain', 'journal.jsonl'), journal, { recursive: true });
    const before = await runCli(['history'], { env });
    expect(before.stderr).toContain(`agentpay ledger import ${journal}`);
    expect(before.stderr.split('ledger import')).toHaveLength(2);
    // The first command made the ledger: the journal is still named until it is imported.
    expect((await runCli(['history'], { env })).stderr).toContain(`agentpay ledger import ${journal}`);
    const asLedger = await runCli(['--ledger', journal, 'history'], { env });
    expect([asLedger.code, asLedger.stderr]).toEqual([2, expect.stringContaining(`agentpay ledger import ${journal}`)]);
    expect((await runCli(['ledger', 'import', journal], { env })).code).toBe(0);
    const after = await runCli(['--json', 'history'], { env });
    expect(after.stderr).toBe('');
    expect(jsonLines(after.stdout)).toHaveLength(realOf('plain').length);
  });
});
