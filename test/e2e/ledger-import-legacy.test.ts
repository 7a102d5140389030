import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/postgres.js';
import { teamLedgerRig } from '../helpers/team-ledger.js';

// `ledger import` of journals an earlier version wrote (test/fixtures/journals/README.md): every
// transaction reaches the team ledger with the state that version reported, once.
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

describe('ledger import of journals written by earlier versions', () => {
  for (const name of ['plain', 'compacted', 'interrupted']) {
    it(`brings every transaction of the ${name} journal over with its state, once`, async () => {
      const ledger = await freshDatabase(rig.server);
      const env = rig.terminal(ledger, 'ann');
      const journal = join(fixtures, name, 'journal.jsonl');
      const first = await runCli(['--json', 'ledger', 'import', journal], { env });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toBe('');
      expect(jsonLines(first.stdout)[0]).toMatchObject({ conflicts: [] });
      const second = await runCli(['--json', 'ledger', 'import', journal], { env });
      expect(jsonLines(second.stdout)[0]).toMatchObject({ added: 0, conflicts: [] });

      const history = await runCli(['--json', 'history'], { env });
      expect(history.code, history.stderr).toBe(0);
      const expected = JSON.parse(readFileSync(join(fixtures, name, 'expected.json'), 'utf8'));
      expect(latestOf(jsonLines(history.stdout))).toEqual(latestOf(expected));
    });
  }

  it('imports a compacted journal whose J a killed compaction had cut away: its other files', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'legacy-import-'));
    const journal = join(directory, 'journal.jsonl');
    cpSync(join(fixtures, 'compacted'), directory, { recursive: true });
    rmSync(journal);
    const env = rig.terminal(await freshDatabase(rig.server), 'ann');
    const imported = await runCli(['--json', 'ledger', 'import', journal], { env });
    expect(imported.code, imported.stderr).toBe(0);
    rmSync(directory, { recursive: true, force: true });
    const history = await runCli(['--json', 'history', '--state', 'pending'], { env });
    expect(
      jsonLines(history.stdout)
        .map(({ amount }) => amount)
        .sort(),
    ).toEqual(['710.00', '730.00', '740.00']);
  });
});
