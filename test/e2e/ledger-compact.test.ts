import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { allEntries, findIntent, openEntries } from '../../src/ledger/file/entries.js';
import { JournalWriter } from '../../src/ledger/file/writer.js';
import { lineOf } from '../../src/ledger/record-format.js';
import type { JournalRecord } from '../../src/ledger/records.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, collectOutput, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { gathered } from '../helpers/gathered.js';
import {
  appenderOutcome,
  appenderOwner,
  appenderTransactions,
  expectedOf,
} from '../helpers/journal-appender-records.mjs';
import { seededRandom } from '../helpers/seeded-random.js';

const appenderPath = fileURLToPath(new URL('../helpers/journal-appender.mjs', import.meta.url));
const killAtPath = fileURLToPath(new URL('../helpers/kill-at.cjs', import.meta.url));

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function runNode(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    collectOutput(child, resolve, reject);
  });
}

/** What the readers make of the appenders' transactions: each one's last word, the open ones, and the lines of every file. */
async function readersSee(journal: string) {
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const history = (await gathered(allEntries(journal, {}, warn))).filter(
    (e) => e.intent.gateway === appenderOwner.gateway,
  );
  const open = (await openEntries(journal, {}, warn)).filter((e) => e.intent.gateway === appenderOwner.gateway);
  return {
    states: new Map(history.map((e) => [e.intent.transactionId, e.outcome?.view.state ?? 'unknown'])),
    historyCount: history.length,
    open: open.map((e) => e.intent.transactionId).sort(),
    warnings,
  };
}

/** Every line in the journal's files: the archive, the open records, any cut, J. */
function linesInFiles(journal: string): Set<string> {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (/\.(tmp-\w+|damaged)$/.test(path)) continue;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(dirname(journal));
  return new Set(files.flatMap((file) => readFileSync(file, 'utf8').split('\n')));
}

function expectedFor(transactions: readonly JournalRecord[][]) {
  const expected = transactions.map((records) => ({ id: records[0]!.transactionId, ...expectedOf(records) }));
  return {
    states: new Map(expected.map((e) => [e.id, e.state])),
    open: expected
      .filter((e) => e.open)
      .map((e) => e.id)
      .sort(),
  };
}

const leftovers = (journal: string) => readdirSync(dirname(journal)).filter((name) => /\.cut-|\.open-/.test(name));

describe('ledger compact while payments are made', () => {
  it('loses and repeats nothing: appenders, pay processes and two compactions at a time, then history, reconcile and the replay guard', async () => {
    const started = await sandboxWithEnv({ faults: { dropAfterCommit: 3 } });
    sandbox = started.sandbox;
    const env: Record<string, string> = { ...started.env, AGENTPAY_SETTLE_DELAY: '20' };
    const journal = join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
    mkdirSync(dirname(journal), { recursive: true });

    // Three processes append 400 transactions between them through the writer; two `pay` loops pay
    // against the sandbox (three answers dropped: left unknown, for reconcile); two loops compact.
    const batches = [
      { seed: 11, first: 100_000, count: 150 },
      { seed: 12, first: 200_000, count: 150 },
      { seed: 13, first: 300_000, count: 100 },
    ];
    let writing = true;
    // Odd seeds append in groups (JournalWriter.appendGrouped), as pay --from-file does.
    const appenders = Promise.all(
      batches.map(({ seed, first, count }) =>
        runNode(
          [appenderPath, journal, String(seed), String(first), String(count), ...(seed % 2 === 1 ? ['grouped'] : [])],
          env,
        ),
      ),
    );
    const payments: Record<string, unknown>[] = [];
    const payLoop = async () => {
      for (let i = 0; i < 4; i++) {
        const paid = await runCli(
          [
            'pay',
            '--service',
            '101',
            '--account',
            'player-42',
            '--invoice-id',
            '5002',
            '--settle-attempts',
            '0',
            '--allow-duplicate',
            '--json',
          ],
          { env },
        );
        expect([0, 3]).toContain(paid.code);
        payments.push(jsonLines(paid.stdout)[0]!);
      }
    };
    const compactions: CliResult[] = [];
    const compactLoop = async () => {
      while (writing) compactions.push(await runCli(['ledger', 'compact', '--json'], { env }));
    };
    const loops = [compactLoop(), compactLoop()];
    const writers = await Promise.all([appenders, payLoop(), payLoop()]);
    writing = false;
    await Promise.all(loops);
    for (const result of writers[0]) expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const result of compactions) expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(
      compactions.filter((result) => (JSON.parse(result.stdout) as { cuts: number[] }).cuts.length > 0).length,
    ).toBeGreaterThan(1);

    // What every appender wrote is in the files, and the readers make of it what they would of one journal.
    const transactions = batches.flatMap(({ seed, first, count }) => appenderTransactions(seed, first, count));
    const lines = linesInFiles(journal);
    for (const line of transactions.flat().map(lineOf)) expect(lines).toContain(line);
    const expected = expectedFor(transactions);
    const seen = await readersSee(journal);
    expect(seen.historyCount).toBe(transactions.length);
    expect(seen.states).toEqual(expected.states);
    expect(seen.open).toEqual(expected.open);
    expect(seen.warnings).toEqual([]);

    // A last compaction, and the same again, with nothing left in between.
    expect((await runCli(['ledger', 'compact'], { env })).code).toBe(0);
    expect(leftovers(journal)).toEqual([expect.stringMatching(/\.open-\d+$/)]);
    const after = await readersSee(journal);
    expect(after.states).toEqual(expected.states);
    expect(after.open).toEqual(expected.open);

    // The payments: each once in history, the unknown ones settled by reconcile, every id refused for another purchase.
    const ids = payments.map((p) => String(p.transactionId));
    const unknown = payments.filter((p) => p.state === 'unknown').map((p) => String(p.transactionId));
    expect(unknown).toHaveLength(3);
    const history = jsonLines((await runCli(['history', '--json', '--gateway', sandbox.baseUrl], { env })).stdout);
    expect(history.map((row) => String(row.transactionId)).sort()).toEqual([...ids].sort());
    const reconciled = await runCli(['reconcile', '--json'], { env });
    expect(reconciled.code).toBe(0);
    expect(jsonLines(reconciled.stdout).map((row) => [String(row.transactionId), row.state])).toEqual(
      expect.arrayContaining(unknown.map((id) => [id, 'success'])),
    );
    expect(jsonLines(reconciled.stdout)).toHaveLength(3);
    for (const transactionId of ids)
      expect(
        await findIntent(journal, { gateway: sandbox.baseUrl, agentId: '1001', transactionId }, () => {}),
      ).toBeDefined();
    const replay = await runCli(
      ['pay', '--service', '101', '--account', 'player-42', '--invoice-id', '5001', '--txn-id', ids[0]!],
      { env },
    );
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('already used');
    expect(sandbox.store.all()).toHaveLength(8);
  });
});

describe('ledger compact killed at any point', () => {
  /** A journal of 60 transactions over three days, with two damaged lines. */
  function writeJournal(journal: string, seed: number) {
    const transactions = appenderTransactions(seed, 1000, 60);
    const lines = transactions.flat().map(lineOf);
    lines.splice(7, 0, 'a damaged line');
    lines.splice(40, 0, '{"kind":"intent","transactionId":"1"}');
    mkdirSync(dirname(journal), { recursive: true });
    writeFileSync(journal, `${lines.join('\n')}\n`);
    return transactions;
  }

  /** More records: a final word for some open transactions, and new ones. */
  function appendMore(journal: string, transactions: JournalRecord[][], seed: number) {
    const more = appenderTransactions(seed, 2000, 20);
    const writer = new JournalWriter(journal);
    for (const records of transactions.filter((records) => expectedOf(records).open).slice(0, 6)) {
      const closing = appenderOutcome(records[0]!.transactionId, 'success', '2026-11-22T09:00:00.000Z');
      writer.append(closing);
      records.push(closing);
    }
    for (const record of more.flat()) writer.append(record);
    writer.close();
    transactions.push(...more);
  }

  it('leaves what the next compaction finishes: nothing lost, nothing seen twice, damaged lines moved once', async () => {
    const random = seededRandom(2026);
    const rounds = Array.from({ length: 6 }, (_, round) => round);
    await Promise.all(
      rounds.map(async (round) => {
        const env = isolatedEnv();
        const journal = join(env.HOME!, 'journal.jsonl');
        const compact = (killAt: number) =>
          runCli(['ledger', 'compact'], {
            env: { ...env, AGENTPAY_JOURNAL: journal, AGENTPAY_TEST_KILL_AT: String(killAt) },
            nodeArgs: ['--require', killAtPath],
          });
        const transactions = writeJournal(journal, 100 + round);
        // Killed once with nothing compacted before, once after more records came, then run to its end.
        const first = await compact(1 + Math.floor(random() * 45));
        appendMore(journal, transactions, 200 + round);
        const second = await compact(1 + Math.floor(random() * 60));
        expect([first.code, second.code].every((code) => code === 0 || code === null)).toBe(true);
        const expected = expectedFor(transactions);
        const killed = await readersSee(journal);
        expect(killed.historyCount).toBe(transactions.length);
        expect(killed.states).toEqual(expected.states);
        expect(killed.open).toEqual(expected.open);

        expect((await compact(0)).code).toBe(0);
        const done = await readersSee(journal);
        expect(done).toEqual({ ...expected, historyCount: transactions.length, warnings: [] });
        const lines = linesInFiles(journal);
        for (const line of transactions.flat().map(lineOf)) expect(lines).toContain(line);
        expect(leftovers(journal)).toEqual([expect.stringMatching(/\.open-\d+$/)]);
        const damaged = readFileSync(`${journal}.damaged`, 'utf8').split('\n');
        expect(damaged.filter((line) => !line.startsWith('#'))).toEqual([
          'a damaged line',
          '{"kind":"intent","transactionId":"1"}',
          '',
        ]);
      }),
    );
  });

  it('history --since reaches into the archive, day by day', async () => {
    const env = isolatedEnv();
    const journal = join(env.HOME!, 'journal.jsonl');
    const transactions = writeJournal(journal, 7);
    const envWithJournal = { ...env, AGENTPAY_JOURNAL: journal };
    const since = async () =>
      jsonLines(
        (await runCli(['history', '--json', '--since', '2026-11-20T00:00:00Z'], { env: envWithJournal })).stdout,
      ).map((row) => row.transactionId);
    const before = await since();
    expect((await runCli(['ledger', 'compact'], { env: envWithJournal })).code).toBe(0);
    expect(
      readdirSync(`${journal}.archive`)
        .filter((name) => name.endsWith('.jsonl'))
        .sort(),
    ).toEqual(['2026-11-19.1.jsonl', '2026-11-20.1.jsonl', '2026-11-21.1.jsonl']);
    expect((await since()).sort()).toEqual([...before].sort());
    const lastDays = transactions.filter(
      (records) => records.filter((r) => r.kind === 'intent').at(-1)!.at >= '2026-11-20',
    );
    expect(before).toHaveLength(lastDays.length);
  });
});
