import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { claimedBatchOf } from '../../src/ledger/claimed-batch.js';
import type { Ledger } from '../../src/ledger/ledger.js';
import { openLedger } from '../../src/ledger/open-ledger.js';
import type { TeamLedger } from '../../src/ledger/team-ledger.js';
import { intent, outcome } from '../helpers/journal-lines.js';

describe('team capabilities behind the ledger interface', () => {
  it('a SQLite ledger offers none, and says nothing when it opens', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-team-')), 'ledger.sqlite');
    const notes: string[] = [];
    const ledger = await openLedger(
      { kind: 'file', path, shown: path },
      { operator: 'ann', env: {}, stateDirectory: tmpdir(), byDefault: false, note: (note) => notes.push(note) },
    );
    try {
      expect([ledger.team, notes]).toEqual([undefined, []]);
    } finally {
      await ledger.close();
    }
    expectTypeOf<Ledger['team']>().toEqualTypeOf<TeamLedger | undefined>();
  });

  it("a claimed batch's record() settles once done() wrote it, and done() even when writing fails", async () => {
    const written: string[][] = [];
    const entries = [{ intent: intent('1'), outcome: undefined }];
    const batch = claimedBatchOf(
      entries,
      (learned) => learned.transactionId,
      async (learned) => {
        written.push([...learned]);
        throw new Error('the database went away');
      },
    );
    let settled = false;
    const recorded = batch.record(outcome('1', 'success')).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect([settled, written]).toEqual([false, []]);
    await expect(batch.done()).rejects.toThrow('went away');
    await recorded;
    expect([settled, written]).toEqual([true, [['1']]]);
  });
});
