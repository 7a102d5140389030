import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactJournal } from '../../src/ledger/file/compact.js';
import { allEntries, findIntent, openEntries } from '../../src/ledger/file/entries.js';
import { cutDirectory, segmentPath } from '../../src/ledger/file/journal-files.js';
import { JournalWriter } from '../../src/ledger/file/writer.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { gathered } from '../helpers/gathered.js';
import { intent, linesOf, outcome, owner } from '../helpers/journal-lines.js';

function journalPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'agentpay-compact-')), 'journal.jsonl');
}

const on = (day: string, record: IntentRecord | OutcomeRecord) =>
  ({ ...record, at: `${day}T10:00:00.000Z` }) as typeof record;

/** What every reader makes of the journal: history's last words, the open ones, and the replay guard's finds. */
async function readersSee(journal: string, ids: readonly string[]) {
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const history = (await gathered(allEntries(journal, {}, warn)))
    .map((e) => `${e.intent.transactionId} ${e.outcome?.view.state ?? 'unknown'}`)
    .sort();
  const open = (await openEntries(journal, {}, warn))
    .map((e) => `${e.intent.transactionId} ${e.outcome?.view.state ?? 'unknown'}`)
    .sort();
  const found: string[] = [];
  for (const transactionId of ids)
    if (await findIntent(journal, { ...owner, transactionId }, warn)) found.push(transactionId);
  return { history, open, found, warnings };
}

describe('ledger compact (the file journal)', () => {
  it('moves closed transactions to the archive by the day of their last intent, keeps the open ones, and the readers see the same', async () => {
    const journal = journalPath();
    writeFileSync(
      journal,
      linesOf([
        on('2026-11-19', intent('1')),
        on('2026-11-19', outcome('1', 'success')),
        on('2026-11-19', intent('2')),
        on('2026-11-20', intent('3')),
        on('2026-11-20', outcome('2', 'pending')),
        on('2026-11-20', outcome('3', 'failed')),
        // 4: failed, then retried the next day and still open; 5: retried and settled.
        on('2026-11-20', intent('4')),
        on('2026-11-20', outcome('4', 'failed')),
        on('2026-11-21', intent('4')),
        on('2026-11-20', intent('5')),
        on('2026-11-20', outcome('5', 'failed')),
        on('2026-11-21', intent('5')),
        on('2026-11-21', outcome('5', 'success')),
      ]),
    );
    const ids = ['1', '2', '3', '4', '5', '6'];
    const before = await readersSee(journal, ids);
    expect(before.history).toEqual(['1 success', '2 pending', '3 failed', '4 unknown', '5 success']);
    expect(before.open).toEqual(['2 pending', '4 unknown']);

    const report = await compactJournal(journal);
    expect(report).toMatchObject({
      cuts: [1],
      archived: { transactions: 3, records: 8 },
      open: { transactions: 2, records: 5, file: `${journal}.open-1` },
    });
    expect(
      readdirSync(`${journal}.archive`)
        .filter((name) => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['2026-11-19.1.jsonl', '2026-11-20.1.jsonl', '2026-11-21.1.jsonl']);
    expect(readFileSync(`${journal}.archive/2026-11-21.1.jsonl`, 'utf8')).toBe(
      linesOf([
        on('2026-11-20', intent('5')),
        on('2026-11-20', outcome('5', 'failed')),
        on('2026-11-21', intent('5')),
        on('2026-11-21', outcome('5', 'success')),
      ]),
    );
    expect(existsSync(journal)).toBe(false);
    expect(await readersSee(journal, ids)).toEqual(before);

    // Later records close 2 and 4: the next compaction archives them, with the earlier open records.
    const writer = new JournalWriter(journal);
    writer.append(on('2026-11-22', outcome('2', 'success')));
    writer.append(on('2026-11-22', outcome('4', 'success')));
    writer.append(on('2026-11-22', intent('7')));
    writer.close();
    expect((await compactJournal(journal)).cuts).toEqual([2]);
    expect(
      readdirSync(`${journal}.archive`)
        .filter((name) => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual([
      '2026-11-19.1.jsonl',
      '2026-11-19.2.jsonl',
      '2026-11-20.1.jsonl',
      '2026-11-21.1.jsonl',
      '2026-11-21.2.jsonl',
    ]);
    expect(readdirSync(join(journal, '..')).sort()).toEqual(['journal.jsonl.archive', 'journal.jsonl.open-2']);
    const after = await readersSee(journal, [...ids, '7']);
    expect(after.history).toEqual(['1 success', '2 success', '3 failed', '4 success', '5 success', '7 unknown']);
    expect(after.open).toEqual(['7 unknown']);
    expect(after.found).toEqual([...ids.slice(0, 5), '7']);
  });

  it('history --since reads only the archive days it needs', async () => {
    const journal = journalPath();
    writeFileSync(
      journal,
      linesOf([
        on('2026-11-19', intent('1')),
        on('2026-11-19', outcome('1', 'success')),
        on('2026-11-21', intent('2')),
        on('2026-11-21', outcome('2', 'success')),
      ]),
    );
    await compactJournal(journal);
    const since = async (text: string) =>
      (await gathered(allEntries(journal, { since: new Date(text) }, () => {}))).map((e) => e.intent.transactionId);
    expect(await since('2026-11-21T00:00:00Z')).toEqual(['2']);
    expect(await since('2026-11-19T09:00:00Z')).toEqual(['1', '2']);
    expect(await since('2026-11-19T11:00:00Z')).toEqual(['2']);
  });

  it('moves damaged lines to <journal>.damaged once, after which the readers stop warning', async () => {
    const journal = journalPath();
    writeFileSync(
      journal,
      linesOf([intent('1'), 'not json', outcome('1', 'success'), '{"kind":"outcome"}', intent('2')]),
    );
    expect((await readersSee(journal, [])).warnings).toHaveLength(4);
    const report = await compactJournal(journal);
    expect(report.damaged).toEqual({ lines: 2, file: `${journal}.damaged` });
    const damaged = readFileSync(`${journal}.damaged`, 'utf8').split('\n');
    expect(damaged.slice(1)).toEqual(['not json', '{"kind":"outcome"}', '']);
    expect(damaged[0]).toMatch(/^# agentpay ledger compact, cut 1-[0-9a-f]+: 2 damaged lines$/);
    expect((await readersSee(journal, [])).warnings).toEqual([]);
    expect((await compactJournal(journal)).cuts).toEqual([]);
    expect(readFileSync(`${journal}.damaged`, 'utf8').split('\n')).toEqual(damaged);
  });

  it('takes a record read twice (in a cut and again in the journal) as one', async () => {
    const journal = journalPath();
    // As a writer whose check raced a compaction leaves it: the same lines in the cut and in J.
    mkdirSync(join(cutDirectory(journal, 1), 'ab'), { recursive: true });
    writeFileSync(
      segmentPath(journal, 1, 'ab'),
      linesOf([intent('1'), intent('2'), outcome('2', 'success'), intent('3'), outcome('3', 'pending')]),
    );
    writeFileSync(
      journal,
      linesOf([
        intent('1'),
        outcome('2', 'success'),
        outcome('3', 'pending'),
        outcome('3', 'success'),
        outcome('3', 'pending'),
      ]),
    );
    const expected = {
      history: ['1 unknown', '2 success', '3 success'],
      open: ['1 unknown'],
      found: ['1', '2', '3'],
      warnings: [],
    };
    expect(await readersSee(journal, ['1', '2', '3'])).toEqual(expected);
    // The left-over cut is compacted first, then the journal.
    expect((await compactJournal(journal)).cuts).toEqual([1, 2]);
    expect(await readersSee(journal, ['1', '2', '3'])).toEqual(expected);
    expect(readFileSync(`${journal}.open-2`, 'utf8')).toBe(linesOf([intent('1'), intent('1')]));
  });

  it('takes over a claim whose compaction died before it cut, and finishes a cut left unfinished', async () => {
    const journal = journalPath();
    writeFileSync(journal, linesOf([intent('1'), outcome('1', 'success'), intent('2')]));
    // A compaction died between claiming cut 1 and renaming the journal into it.
    mkdirSync(join(cutDirectory(journal, 1), 'dead'), { recursive: true });
    expect((await compactJournal(journal)).cuts).toEqual([1]);
    expect(readdirSync(join(journal, '..')).sort()).toEqual(['journal.jsonl.archive', 'journal.jsonl.open-1']);

    // One died after its cut, with the cut's length fixed: what was written after that length is in J too.
    writeFileSync(journal, linesOf([outcome('2', 'success'), intent('3')]));
    mkdirSync(join(cutDirectory(journal, 2), 'dead'), { recursive: true });
    renameSync(journal, segmentPath(journal, 2, 'dead'));
    const fixed = readFileSync(segmentPath(journal, 2, 'dead')).length;
    writeFileSync(join(cutDirectory(journal, 2), 'dead', 'length'), `${fixed}\n`);
    writeFileSync(segmentPath(journal, 2, 'dead'), linesOf([intent('4')]), { flag: 'a' });
    writeFileSync(journal, linesOf([intent('4')]));
    expect((await readersSee(journal, ['1', '2', '3', '4'])).open).toEqual(['3 unknown', '4 unknown']);
    expect((await compactJournal(journal)).cuts).toEqual([2, 3]);
    const after = await readersSee(journal, ['1', '2', '3', '4']);
    expect(after).toEqual({
      history: ['1 success', '2 success', '3 unknown', '4 unknown'],
      open: ['3 unknown', '4 unknown'],
      found: ['1', '2', '3', '4'],
      warnings: [],
    });
    expect(readdirSync(join(journal, '..')).sort()).toEqual(['journal.jsonl.archive', 'journal.jsonl.open-3']);
  });

  it('three compactions at once, while a writer appends: the readers see every transaction once', async () => {
    const journal = journalPath();
    const records = Array.from({ length: 300 }, (_, i) => [
      intent(String(i)),
      ...(i % 7 === 0 ? [] : [outcome(String(i), i % 5 === 0 ? 'pending' : 'success')]),
    ]).flat();
    writeFileSync(journal, linesOf(records.slice(0, 200)));
    const ids = ['0', '5', '6', '299'];
    const compactions = Promise.all([compactJournal(journal), compactJournal(journal), compactJournal(journal)]);
    const writer = new JournalWriter(journal);
    for (const record of records.slice(200)) writer.append(record);
    writer.close();
    const reports = await compactions;
    await compactJournal(journal);
    expect(reports.flatMap((report) => report.cuts)).toContain(1);
    const seen = await readersSee(journal, ids);
    expect(seen.history).toHaveLength(300);
    expect(seen.open).toHaveLength(
      Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 7 === 0 || i % 5 === 0).length,
    );
    expect(seen.found).toEqual(ids);
    expect(seen.warnings).toEqual([]);
    expect(readdirSync(join(journal, '..')).filter((name) => /\.(cut|tmp|open)-/.test(name))).toEqual([
      expect.stringMatching(/\.open-\d+$/),
    ]);
  });

  it('archives by the UTC day of a time written with an offset, and refuses a journal that is a symbolic link', async () => {
    const journal = journalPath();
    writeFileSync(journal, linesOf([{ ...intent('1'), at: '2026-11-20T22:00:00-05:00' }, outcome('1', 'success')]));
    await compactJournal(journal);
    expect(
      readdirSync(`${journal}.archive`)
        .filter((name) => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['2026-11-21.1.jsonl']);
    const link = join(journal, '..', 'link.jsonl');
    symlinkSync(`${journal}.archive/2026-11-21.1.jsonl`, link);
    await expect(compactJournal(link)).rejects.toThrow(/is a symbolic link/);
  });

  it('a writer whose file was renamed away writes the line again to the journal there now', async () => {
    const journal = journalPath();
    const writer = new JournalWriter(journal);
    writer.append(intent('1'));
    // A compaction renames the journal while the writer holds it open.
    renameSync(journal, `${journal}.away`);
    writer.append(outcome('1', 'success'));
    writer.append(intent('2'));
    writer.close();
    expect(readFileSync(`${journal}.away`, 'utf8')).toBe(linesOf([intent('1'), outcome('1', 'success')]));
    expect(readFileSync(journal, 'utf8')).toBe(linesOf([outcome('1', 'success'), intent('2')]));
    expect(lineOf(intent('2'))).not.toContain('\n');
  });
});

describe('ledger compact after the open records were removed by hand', () => {
  it('refuses rather than number cuts again from 1 over the archive it kept (exit 6, nothing compacted)', async () => {
    const journal = journalPath();
    writeFileSync(
      journal,
      linesOf([
        on('2026-11-19', intent('1')),
        on('2026-11-19', outcome('1', 'success')),
        on('2026-11-19', intent('2')),
      ]),
    );
    await compactJournal(journal);
    // "Start over, keep the history": the live files go, the archive stays.
    renameSync(`${journal}.open-1`, `${journal}.open-1.moved`);
    writeFileSync(journal, linesOf([on('2026-11-20', intent('3'))]));
    await expect(compactJournal(journal)).rejects.toThrow(
      /its archive holds cut 1 but the newest journal\.jsonl\.open-<n> is 0\); nothing was compacted/,
    );
    expect(readFileSync(journal, 'utf8')).toContain('"transactionId":"3"');
  });
});
