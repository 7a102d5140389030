import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { allEntries, openEntries } from '../../src/ledger/file/entries.js';
import { journalRecords } from '../../src/ledger/file/record-stream.js';
import { JournalWriter } from '../../src/ledger/file/writer.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { IntentRecord, JournalRecord, OutcomeRecord } from '../../src/ledger/records.js';
import { gathered } from '../helpers/gathered.js';
import { intent, outcome } from '../helpers/journal-lines.js';

/**
 * A writer frozen between its write(2) into the journal and its look at whether the journal is
 * still its file (SIGSTOP, a cgroup freeze, swapping), while a compaction cuts the journal and
 * an agent retries: the line it wrote must stay where readers saw it, never move behind the
 * retry's records (docs/reliability.md, "Compacting the journal").
 */

const helper = (name: string) => fileURLToPath(new URL(`../helpers/${name}`, import.meta.url));
const T = '777001';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Run {
  directory: string;
  journal: string;
  /** The pay that makes attempts at T from the test's process. */
  me: JournalWriter;
  /** The final outcome of attempt 1 the paused writer (a reconcile) writes. */
  o1: OutcomeRecord;
}

function setUp(): Run {
  const directory = mkdtempSync(join(tmpdir(), 'agentpay-paused-'));
  const o1 = { ...outcome(T, 'failed'), at: '2026-11-21T10:00:02.000Z' };
  return {
    directory,
    journal: join(directory, 'journal.jsonl'),
    me: new JournalWriter(join(directory, 'journal.jsonl')),
    o1,
  };
}

const attempt = (at: string): IntentRecord => intent(T, at);

function start(
  run: Run,
  script: string,
  pause: string,
  records?: { first: JournalRecord; next: JournalRecord },
): Promise<number | null> {
  const child = spawn(process.execPath, ['--require', helper('pause-at.cjs'), helper(script), run.journal], {
    env: {
      ...process.env,
      AGENTPAY_TEST_PAUSE_DIR: run.directory,
      AGENTPAY_TEST_PAUSE: pause,
      AGENTPAY_TEST_RECORDS: JSON.stringify(records ?? {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
}

async function reached(run: Run, name: string): Promise<void> {
  for (let waited = 0; !existsSync(join(run.directory, name)); waited += 5) {
    if (waited > 20_000) throw new Error(`${name} never appeared`);
    await sleep(5);
  }
}

const go = (run: Run, name: string) => writeFileSync(join(run.directory, name), '');

/** What history shows for T, whether reconcile sees it open, and how often each record of T is read (import). */
async function seen(run: Run) {
  const warn = () => {};
  const history = (await gathered(allEntries(run.journal, {}, warn)))
    .filter((e) => e.intent.transactionId === T)
    .map((e) => e.outcome?.view.state ?? 'unknown');
  const open = (await openEntries(run.journal, {}, warn)).some((e) => e.intent.transactionId === T);
  const times = new Map<string, number>();
  for await (const record of journalRecords(run.journal, warn)) {
    if (record.transactionId !== T) continue;
    const line = lineOf(record);
    times.set(line, (times.get(line) ?? 0) + 1);
  }
  return {
    history,
    open,
    repeated: [...times.values()].some((count) => count > 1),
    o1: times.get(lineOf(run.o1)) ?? 0,
  };
}

/** Attempt 1 of T in the journal, and a reconcile holding the journal open, about to write O1. */
async function attemptOneAndReconcile(run: Run): Promise<{ writer: Promise<number | null> }> {
  run.me.append(attempt('2026-11-21T10:00:00.000Z'));
  const writer = start(run, 'paused-writer.mjs', 'writer-after-fsync', {
    first: intent('777999', '2026-11-21T10:00:01.000Z'),
    next: run.o1,
  });
  await reached(run, 'writer.ready');
  // In an object: a promise returned from an async function would be awaited with it.
  return { writer };
}

describe('ledger compact with a writer paused between its write and its check', () => {
  for (const retry of ['in flight', 'success'] as const) {
    it(`keeps a line read inside the cut where it is: a retry after it stays ${retry === 'success' ? 'a success' : 'open'} (the cut compacted and removed meanwhile)`, async () => {
      const run = setUp();
      const { writer } = await attemptOneAndReconcile(run);
      const compaction = start(run, 'paused-compaction.mjs', 'compact-after-cut');
      await reached(run, 'compact.paused'); // the journal is in cut 1, its length not fixed
      go(run, 'write.go');
      await reached(run, 'writer.paused'); // O1 "failed" in the cut, fsynced; the writer frozen before its check
      go(run, 'compact.go');
      expect(await compaction).toBe(0); // cut 1 compacted (O1 inside its length) and removed
      expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });

      // The agent sees "failed" and makes the safe retry, same TransactionID.
      run.me.append(attempt('2026-11-21T10:00:03.000Z'));
      if (retry === 'success')
        run.me.append({ ...outcome(T, 'success'), at: '2026-11-21T10:00:04.000Z', source: 'payment' });
      const expected =
        retry === 'success' ? { history: ['success'], open: false } : { history: ['unknown'], open: true };
      expect(await seen(run)).toEqual({ ...expected, repeated: false, o1: 1 });

      go(run, 'writer.go'); // the writer goes on: its line is in the cut's length, it writes nothing again
      expect(await writer).toBe(0);
      expect(await seen(run)).toEqual({ ...expected, repeated: false, o1: 1 });
      expect(readFileSync(run.journal, 'utf8')).not.toContain(lineOf(run.o1));
      expect(await start(run, 'paused-compaction.mjs', 'none')).toBe(0);
      expect(await seen(run)).toEqual({ ...expected, repeated: false, o1: 1 });
      run.me.close();
    });
  }

  it('fixes the length itself when the compaction has not, and keeps its line in the cut', async () => {
    const run = setUp();
    const { writer } = await attemptOneAndReconcile(run);
    const compaction = start(run, 'paused-compaction.mjs', 'compact-after-cut');
    await reached(run, 'compact.paused');
    go(run, 'write.go');
    await reached(run, 'writer.paused');
    go(run, 'writer.go'); // the compaction still frozen: the writer fixes the cut's length, its line inside
    expect(await writer).toBe(0);
    expect(readdirSync(`${run.journal}.archive`).filter((name) => name.startsWith('cut-1.'))).toHaveLength(1);
    expect(existsSync(run.journal)).toBe(false); // nothing written again
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    go(run, 'compact.go');
    expect(await compaction).toBe(0);
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    run.me.close();
  });

  it('a line past the cut length is read by no one until its writer writes it again to the journal', async () => {
    const run = setUp();
    const { writer } = await attemptOneAndReconcile(run);
    const compaction = start(run, 'paused-compaction.mjs', 'compact-after-length');
    await reached(run, 'compact.paused'); // the cut's length fixed
    go(run, 'write.go');
    await reached(run, 'writer.paused'); // O1 in the cut past its length
    expect(await seen(run)).toEqual({ history: ['unknown'], open: true, repeated: false, o1: 0 });
    go(run, 'compact.go');
    expect(await compaction).toBe(0);
    expect(await seen(run)).toEqual({ history: ['unknown'], open: true, repeated: false, o1: 0 });
    go(run, 'writer.go');
    expect(await writer).toBe(0);
    expect(readFileSync(run.journal, 'utf8')).toContain(lineOf(run.o1));
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    run.me.close();
  });

  it('a reader that looks into a cut first fixes its length: a line written after that is not read there', async () => {
    const run = setUp();
    const { writer } = await attemptOneAndReconcile(run);
    const compaction = start(run, 'paused-compaction.mjs', 'compact-after-cut');
    await reached(run, 'compact.paused');
    expect(await seen(run)).toEqual({ history: ['unknown'], open: true, repeated: false, o1: 0 }); // fixes cut 1's length
    go(run, 'write.go');
    await reached(run, 'writer.paused');
    expect(await seen(run)).toEqual({ history: ['unknown'], open: true, repeated: false, o1: 0 });
    go(run, 'writer.go');
    expect(await writer).toBe(0);
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    go(run, 'compact.go');
    expect(await compaction).toBe(0);
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    run.me.close();
  });

  it('reads a transaction archived while the live files were opened once (history, ledger import)', async () => {
    const run = setUp();
    run.me.append(attempt('2026-11-21T10:00:00.000Z'));
    run.me.append(run.o1);
    run.me.append(intent('777002', '2026-11-21T10:00:05.000Z'));
    const compaction = start(run, 'paused-compaction.mjs', 'compact-after-archive');
    await reached(run, 'compact.paused'); // T's archive published, cut 1 not yet compacted
    expect(readdirSync(`${run.journal}.archive`)).toContain('2026-11-21.1.jsonl');
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    go(run, 'compact.go');
    expect(await compaction).toBe(0);
    expect(await seen(run)).toEqual({ history: ['failed'], open: false, repeated: false, o1: 1 });
    run.me.close();
  });
});
