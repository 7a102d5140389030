import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkFileSystemOf } from '../../src/ledger/sqlite/database.js';
import { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, collectOutput, runCli, spawnAgentpay } from '../helpers/cli.js';
import { envFor, paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { intent } from '../helpers/journal-lines.js';
import { defaultLedger, ledgerRecords, sandboxLedger, seedLedger } from '../helpers/ledger-file.js';

// The local ledger's file as a user meets it (docs/reliability.md): private, one writer at a
// time with the wait said and Ctrl+C heard, and refused where SQLite cannot keep it.
let sandbox: RunningSandbox;
beforeAll(async () => {
  ({ sandbox } = await sandboxWithEnv());
});
afterAll(() => sandbox.close());

const pay = [
  '--json',
  'pay',
  '--service',
  '202',
  '--account',
  '7011234567',
  '--amount',
  '1500.00',
  '--currency',
  'KZT',
];

describe('the SQLite ledger file', () => {
  it('is made 0600 in a 0700 directory, with its -wal and -shm while a command runs', async () => {
    const env = envFor(sandbox);
    expect((await runCli(pay, { env })).code).toBe(0);
    const ledger = defaultLedger(env);
    expect(statSync(ledger).mode & 0o777).toBe(0o600);
    expect(statSync(join(ledger, '..')).mode & 0o777).toBe(0o700);
    // A reader keeps the WAL's files in place: SQLite makes them with the database's mode.
    const reader = new DatabaseSync(ledger);
    reader.exec('BEGIN; SELECT count(*) FROM agentpay_transactions;');
    for (const suffix of ['-wal', '-shm']) expect(statSync(`${ledger}${suffix}`).mode & 0o777).toBe(0o600);
    reader.exec('COMMIT');
    reader.close();
    expect(await ledgerRecords(ledger)).toHaveLength(2);
  });

  it("another process's write lock: the wait is said, and Ctrl+C ends it with nothing sent (exit 130)", async () => {
    const env = envFor(sandbox);
    expect((await runCli(['history'], { env })).code).toBe(0);
    const holder = new DatabaseSync(defaultLedger(env));
    holder.exec('BEGIN IMMEDIATE');
    const before = paymentsReceived(sandbox).length;
    const child = spawnAgentpay(pay, { env });
    const done = new Promise<CliResult>((resolve, reject) => collectOutput(child, resolve, reject));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('another agentpay is writing')) child.kill('SIGINT');
    });
    const result = await done;
    holder.exec('ROLLBACK');
    holder.close();
    expect(result.code, result.stderr).toBe(130);
    expect(result.stderr).toContain(`waiting for ${defaultLedger(env)}`);
    expect(paymentsReceived(sandbox).length).toBe(before);
    expect(await ledgerRecords(defaultLedger(env))).toEqual([]);
  });

  it('a ledger another process is making now: the next command waits for it, then pays', async () => {
    const env = envFor(sandbox);
    const path = defaultLedger(env);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    // What a first agentpay holds while it makes the file (rollback journal, before WAL): every lock.
    const maker = new DatabaseSync(path);
    maker.exec('BEGIN EXCLUSIVE');
    const child = spawnAgentpay(pay, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const done = new Promise<CliResult>((resolve, reject) => collectOutput(child, resolve, reject));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('another agentpay is writing')) maker.exec('COMMIT');
    });
    const result = await done;
    maker.close();
    expect(result.code, result.stderr).toBe(0);
    expect(await ledgerRecords(path)).toHaveLength(2);
  });
  it('a file that is not a ledger is refused (exit 2), never overwritten', async () => {
    const env = envFor(sandbox);
    const path = join(env.HOME!, 'notes.txt');
    mkdirSync(env.HOME!, { recursive: true });
    writeFileSync(path, 'my notes\n');
    const result = await runCli(['--ledger', path, ...pay], { env });
    expect([result.code, result.stderr]).toEqual([2, expect.stringContaining('neither an agentpay ledger')]);
    expect(readFileSync(path, 'utf8')).toBe('my notes\n');
  });

  it('names the network file systems WAL cannot share memory across, and lets local ones through', () => {
    expect(networkFileSystemOf(0x6969)).toBe('NFS');
    expect(networkFileSystemOf(0xfe534d42)).toBe('SMB2');
    expect(networkFileSystemOf(0xef53)).toBeUndefined(); // ext4
    expect(networkFileSystemOf(0x01021994)).toBeUndefined(); // tmpfs
  });

  it('a reconciler killed while it holds a claim leaves nothing held: the next one takes its transactions at once', async () => {
    const env = envFor(sandbox);
    const path = defaultLedger(env);
    await seedLedger(path, [intent('5001'), intent('5002')]);
    const ledgerModule = new URL('../../dist/ledger/sqlite/sqlite-ledger.js', import.meta.url).href;
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { SqliteLedger } from ${JSON.stringify(ledgerModule)};
         const ledger = await SqliteLedger.open({ kind: 'file', path: ${JSON.stringify(path)}, shown: 'l' }, { by: { operator: 'cron', host: 'h' }, note: () => {} });
         for await (const batch of ledger.claimOpen({ gateway: 'sandbox', agentId: '1001' }, {})) {
           console.log(batch.entries.length);
           setInterval(() => {}, 1000);
           await new Promise(() => {});
         }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const claimed = await new Promise<string>((resolve) =>
      holder.stdout.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    expect(claimed.trim()).toBe('2');
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('close', resolve));
    const next = await SqliteLedger.open(
      { kind: 'file', path, shown: path },
      { by: { operator: 'cron', host: 'h' }, note: () => undefined },
    );
    const taken: string[] = [];
    for await (const batch of next.claimOpen({ gateway: 'sandbox', agentId: '1001' }, {})) {
      taken.push(...batch.entries.map((entry) => entry.intent.transactionId));
      await batch.done();
    }
    await next.close();
    expect(taken).toEqual(['5001', '5002']);
  });

  it("another program's SQLite file is refused and left as it was; a ledger file made 0644 is made private", async () => {
    const env = envFor(sandbox);
    mkdirSync(env.HOME!, { recursive: true });
    const other = join(env.HOME!, 'notes.db');
    const notes = new DatabaseSync(other);
    notes.exec("CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine')");
    notes.close();
    const refused = await runCli(['--ledger', other, 'history'], { env });
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('neither an agentpay ledger')]);
    const after = new DatabaseSync(other);
    expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all()).toEqual([{ name: 'notes' }]);
    expect(after.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'delete' });
    after.close();

    const touched = join(env.HOME!, 'touched.sqlite');
    writeFileSync(touched, '', { mode: 0o644 });
    expect((await runCli(['--ledger', touched, ...pay], { env })).code).toBe(0);
    expect(statSync(touched).mode & 0o777).toBe(0o600);
  });

  it('ledger import refuses a file that is no journal (a ledger database), and the old journal stays named', async () => {
    const env = envFor(sandbox);
    expect((await runCli(pay, { env })).code).toBe(0);
    const oldJournal = join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
    writeFileSync(oldJournal, `${JSON.stringify(intent('6001'))}\n`);
    const refused = await runCli(['ledger', 'import', defaultLedger(env)], { env });
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringContaining('is not a journal of an earlier agentpay'),
    ]);
    expect((await runCli(['history'], { env })).stderr).toContain(`agentpay ledger import ${oldJournal}`);
  });

  it('reconcile says what another reconciler holds, and leaves it', async () => {
    const env = envFor(sandbox);
    const path = sandboxLedger(env);
    await seedLedger(path, [intent('7001'), intent('7002')]);
    const other = new DatabaseSync(path);
    const until = new Date(Date.now() + 5 * 60_000).toISOString();
    other
      .prepare("INSERT INTO agentpay_leases SELECT transaction_seq, 'elsewhere x', 1, ? FROM agentpay_open")
      .run(until);
    other.close();
    const result = await runCli(['--sandbox', 'reconcile'], { env });
    expect(result.stderr).toContain('2 open transactions are being reconciled by another agentpay right now');
    expect((await ledgerRecords(path)).filter((record) => record.kind === 'outcome')).toEqual([]);
  });
});
