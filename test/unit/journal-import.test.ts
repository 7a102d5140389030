import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { isLegacyJournal, legacyJournalRecords } from '../../src/ledger/journal-import/journal-records.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import { attemptReopens, ownerKey, replacesOutcome } from '../../src/ledger/records.js';
import type { TransactionState } from '../../src/protocol/transaction-view.js';

// Journals written by the file ledger of 42b0cb5 (test/fixtures/journals/README.md says how).
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'journals');

interface Expected {
  gateway: string;
  agentId: string;
  transactionId: string;
  state: TransactionState;
  requestId: string | null;
  amount: string;
}

async function readAll(journal: string): Promise<{ records: JournalRecord[]; warnings: string[] }> {
  const records: JournalRecord[] = [];
  const warnings: string[] = [];
  for await (const record of legacyJournalRecords(journal, (message) => warnings.push(message))) records.push(record);
  return { records, warnings };
}

interface Latest {
  key: string;
  state: TransactionState;
  requestId: string | null;
  amount: string | null;
}

/** Each transaction's latest word by the ledger's rules (records.ts): an intent with no answer since is unknown. */
function latest(records: readonly JournalRecord[]): Latest[] {
  const byKey = new Map<string, Latest>();
  for (const record of records) {
    const key = ownerKey(record);
    const current = byKey.get(key);
    if (record.kind === 'intent') {
      if (current === undefined || attemptReopens(current.state))
        byKey.set(key, { key, state: 'unknown', requestId: null, amount: record.amount });
    } else if (replacesOutcome(current?.state, record.view.state)) {
      const { state, requestId, amount } = record.view;
      byKey.set(key, { key, state, requestId, amount });
    }
  }
  return sorted([...byKey.values()]);
}

const sorted = (rows: Latest[]) => rows.sort((a, b) => (a.key < b.key ? -1 : 1));

const expectedOf = (name: string): Expected[] =>
  JSON.parse(readFileSync(join(fixtures, name, 'expected.json'), 'utf8')) as Expected[];

const expectedLatest = (name: string): Latest[] =>
  sorted(
    expectedOf(name).map(({ gateway, agentId, transactionId, state, requestId, amount }) => ({
      key: ownerKey({ gateway, agentId, transactionId }),
      state,
      requestId,
      amount,
    })),
  );

describe('reading the journals of earlier versions (ledger import)', () => {
  for (const name of ['plain', 'compacted', 'interrupted']) {
    it(`finds every transaction of the ${name} journal with its state, once, and no other`, async () => {
      const { records, warnings } = await readAll(join(fixtures, name, 'journal.jsonl'));
      expect(warnings).toEqual([]);
      expect(latest(records)).toEqual(expectedLatest(name));
      // No record read twice: a cut's archive file written before its open records repeats the cut.
      const lines = records.map((record) => JSON.stringify(record));
      expect(new Set(lines).size).toBe(lines.length);
    });
  }

  it('reads the same records twice', async () => {
    const journal = join(fixtures, 'interrupted', 'journal.jsonl');
    const first = await readAll(journal);
    expect((await readAll(journal)).records).toEqual(first.records);
    expect(first.records.length).toBeGreaterThan(0);
  });

  it('reads a cut only up to its fixed length', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'journal-import-'));
    try {
      cpSync(join(fixtures, 'interrupted'), directory, { recursive: true });
      const journal = join(directory, 'journal.jsonl');
      const [cut] = readdirSync(`${journal}.cut-3`);
      // A line its writer wrote past the length, and so wrote again to J: read there, not here.
      const past = readFileSync(join(fixtures, 'plain', 'journal.jsonl'), 'utf8').split('\n')[0]!;
      appendFileSync(join(`${journal}.cut-3`, cut!, 'journal'), `${past}\n`);
      const { records, warnings } = await readAll(journal);
      expect(warnings).toEqual([]);
      expect(latest(records)).toEqual(expectedLatest('interrupted'));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('skips a damaged line with a warning that names the file and the line', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'journal-import-'));
    try {
      const journal = join(directory, 'journal.jsonl');
      const lines = readFileSync(join(fixtures, 'plain', 'journal.jsonl'), 'utf8').split('\n');
      lines.splice(3, 0, '{"kind":"intent","transactionId":"17961', '{"kind":"outcome","transactionId":7}');
      writeFileSync(journal, lines.join('\n'));
      const { records, warnings } = await readAll(journal);
      expect(warnings).toEqual([
        `journal ${journal} line 4 is damaged (a crash mid-write?): not JSON; skipped`,
        expect.stringMatching(new RegExp(`^journal ${journal} line 5 is damaged .*transactionId.*; skipped$`)),
      ]);
      expect(latest(records)).toEqual(expectedLatest('plain'));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('tells a journal, a compacted one without J, from a SQLite database and other paths', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'journal-import-'));
    try {
      cpSync(join(fixtures, 'compacted'), join(directory, 'compacted'), { recursive: true });
      const compacted = join(directory, 'compacted', 'journal.jsonl');
      rmSync(compacted);
      const database = join(directory, 'ledger.db');
      const db = new DatabaseSync(database);
      db.exec('CREATE TABLE t (x)');
      db.close();
      writeFileSync(join(directory, 'empty'), '');
      writeFileSync(join(directory, 'spaced'), '\n \n{"kind":"intent"}\n');
      mkdirSync(join(directory, 'folder'));
      expect(isLegacyJournal(join(fixtures, 'plain', 'journal.jsonl'))).toBe(true);
      expect(isLegacyJournal(join(directory, 'spaced'))).toBe(true);
      expect(isLegacyJournal(compacted)).toBe(true);
      expect(isLegacyJournal(database)).toBe(false);
      expect(isLegacyJournal(join(directory, 'empty'))).toBe(false);
      expect(isLegacyJournal(join(directory, 'folder'))).toBe(false);
      expect(isLegacyJournal(join(directory, 'none'))).toBe(false);
      // Without J, its archive and open records are still all read.
      const { records } = await readAll(compacted);
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((record) => ownerKey(record) !== '')).toBe(true);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
