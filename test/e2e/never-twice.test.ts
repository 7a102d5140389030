import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BarrierGateway, barrierVoucher, startBarrierGateway } from '../helpers/barrier-gateway.js';
import { type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, type PostgresServer, startPostgres } from '../helpers/postgres.js';

// Two processes paying the same purchase at the same moment, against a gateway of its own that
// lets their AccountChecks go at one instant: the check of the ledger and the intent are one
// step, so exactly one Payment leaves (issue: "never twice, even when run twice").

let gateway: BarrierGateway;
let postgres: PostgresServer;

beforeAll(async () => {
  [gateway, postgres] = await Promise.all([startBarrierGateway(), startPostgres()]);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await postgres?.remove();
});

const service = '301';
let accounts = 0;
/** An account no other test pays: the gateway's counts are per account. */
const freshAccount = () => `88${process.pid % 1000}${String(++accounts).padStart(5, '0')}`;

const paidTo = (account: string) => [...gateway.paid().values()].filter((form) => form.get('Account') === account);

/** A terminal's environment: its own home; the ledger given, or the journal in that home. */
function terminal(ledger: string | undefined, operator: string): Record<string, string> {
  return isolatedEnv({
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: '5120',
    AGENTPAY_PASSWORD: 'secret-of-the-test',
    AGENTPAY_OPERATOR: operator,
    ...(ledger === undefined ? {} : { AGENTPAY_LEDGER: ledger }),
  });
}

const ledgers: { name: string; terminals: () => Promise<[Record<string, string>, Record<string, string>]> }[] = [
  {
    // One machine, one journal: two terminals are two processes with the same home.
    name: 'the journal file',
    terminals: async () => {
      const env = terminal(undefined, 'anna');
      return [env, { ...env, AGENTPAY_OPERATOR: 'boris' }];
    },
  },
  {
    // Two machines sharing a database: nothing in common but the ledger.
    name: 'PostgreSQL',
    terminals: async () => {
      const url = await freshDatabase(postgres);
      return [terminal(url, 'anna'), terminal(url, 'boris')];
    },
  },
];

const payArgs = (account: string) => [
  'pay',
  '--service',
  service,
  '--account',
  account,
  '--invoice-id',
  barrierVoucher.invoiceId,
];

function orderFile(directory: string, name: string, accounts: readonly string[]): string {
  mkdirSync(directory, { recursive: true });
  const path = join(directory, name);
  writeFileSync(
    path,
    [
      'key,service,account,invoice-id',
      ...accounts.map((account, index) => `row-${index + 1},${service},${account},${barrierVoucher.invoiceId}`),
    ].join('\n'),
  );
  return path;
}

/** What each result line of a bulk run (--json) said, by state. */
const statesOf = (result: CliResult) => jsonLines(result.stdout).map((line) => String(line.state));

describe.each(ledgers)('never twice, with $name', ({ terminals }) => {
  it('two terminals pay the same top-up at the same instant: one Payment leaves, the other is refused naming it', async () => {
    const [anna, boris] = await terminals();
    for (let round = 0; round < 3; round++) {
      const account = freshAccount();
      gateway.holdChecks(2);
      const results = await Promise.all([
        runCli(payArgs(account), { env: anna }),
        runCli(payArgs(account), { env: boris }),
      ]);
      gateway.holdChecks(0);
      const paid = paidTo(account);
      expect(paid).toHaveLength(1);
      expect(results.map((result) => result.code).sort()).toEqual([0, 7]);
      const refused = results.find((result) => result.code === 7)!;
      expect(refused.stderr).toContain('refused as a duplicate top-up');
      expect(refused.stderr).toContain(`transaction ${paid[0]!.get('TransactionID')}`);
    }
  });

  it('the same file twice at once: the second run is refused naming the first; a renamed copy beside it pays no row twice', async () => {
    const [anna, boris] = await terminals();
    const directory = join(anna.HOME!, 'orders');
    const rows = Array.from({ length: 10 }, () => freshAccount());
    const file = orderFile(directory, 'day.csv', rows);
    const copy = join(directory, 'day-copy.csv');
    copyFileSync(file, copy);
    const bulk = (path: string, env: Record<string, string>) =>
      runCli(['--json', 'pay', '--from-file', path, '--yes', '--concurrency', '10'], { env });
    // Each run's ten AccountChecks wait for the other's: both plans pass before either pays. The
    // same file's second run starts while they wait (were it let in, its checks would wait too).
    gateway.holdChecks(Number.POSITIVE_INFINITY);
    const first = bulk(file, anna);
    const copied = bulk(copy, boris);
    while (gateway.heldChecks() < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await bulk(file, anna);
    gateway.holdChecks(0);
    gateway.releaseChecks();
    const [one, two] = await Promise.all([first, copied]);

    expect(second.code).toBe(2);
    expect(jsonLines(second.stderr)[0]).toMatchObject({ error: { exitCode: 2 } });
    expect(second.stderr).toMatch(
      new RegExp(`is being paid by another run: process \\d+ on ${hostname()}, since \\d{4}-`),
    );
    for (const account of rows) expect(paidTo(account)).toHaveLength(1);
    const states = [...statesOf(one), ...statesOf(two)];
    expect(states.filter((state) => state === 'success')).toHaveLength(rows.length);
    expect(states.filter((state) => state === 'not-sent')).toHaveLength(rows.length);
    // The refused rows name the payment they would repeat; nothing else went wrong.
    const refusals = [...jsonLines(one.stdout), ...jsonLines(two.stdout)].filter((line) => line.state === 'not-sent');
    for (const line of refusals) expect(String(line.message)).toMatch(/refused as a duplicate top-up.*transaction \d+/);
    // PostgreSQL's driver is never given two queries at once (it warns, and its next major refuses).
    for (const result of [one, two, second]) {
      expect(result.stderr).not.toContain('DeprecationWarning');
      for (const line of result.stderr.split('\n').filter((text) => text !== ''))
        expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('after a deliberate second payment, a retry of the first with --txn-id is the safe retry, not a duplicate', async () => {
    const [anna] = await terminals();
    const account = freshAccount();
    // The two payments before the retry are set-up, paid in-process; the retry runs through the bin.
    const first = await runInProcess(['--json', ...payArgs(account)], anna);
    expect(first.code).toBe(0);
    const firstId = String(jsonLines(first.stdout)[0]!.transactionId);
    expect((await runInProcess([...payArgs(account), '--allow-duplicate'], anna)).code).toBe(0);
    const retry = await runCli([...payArgs(account), '--txn-id', firstId], { env: anna });
    expect(retry.stderr).not.toContain('duplicate');
    expect(retry.code).toBe(0);
    // The retry went out with the first's TransactionID, which the gateway pays once (spec 3 rule 2).
    expect(gateway.payments.filter((form) => form.get('TransactionID') === firstId)).toHaveLength(2);
    expect(paidTo(account)).toHaveLength(2);
  });
});

describe('locks left behind', () => {
  /** A pid that was a process of this machine a moment ago and is none now. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    return Number(child.stdout.trim());
  }

  const lockOf = (pid: number) =>
    JSON.stringify({ pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', token: `token-${pid}` });

  it("a run's lock left by a killed process is taken over; one held by a live one is refused naming it", async () => {
    const env = terminal(undefined, 'anna');
    const directory = join(env.HOME!, 'orders');
    const file = orderFile(directory, 'left.csv', [freshAccount(), freshAccount()]);
    const lockPath = join(directory, 'left.results.csv.lock');

    writeFileSync(lockPath, lockOf(process.pid));
    const refused = await runCli(['pay', '--from-file', file, '--yes'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `is being paid by another run: process ${process.pid} on ${hostname()}, since 2026-01-01T00:00:00.000Z`,
    );

    writeFileSync(lockPath, lockOf(deadPid()));
    const taken = await runCli(['pay', '--from-file', file, '--yes'], { env });
    expect(taken.stderr).toContain('2 rows: 2 success');
    expect(taken.code).toBe(0);
  });

  it("the journal's lock left by a killed process is taken over", async () => {
    const env = terminal(undefined, 'anna');
    const journalDirectory = join(env.XDG_STATE_HOME!, 'agentpay');
    mkdirSync(journalDirectory, { recursive: true });
    writeFileSync(join(journalDirectory, 'journal.jsonl.lock'), lockOf(deadPid()));
    const account = freshAccount();
    const result = await runCli(payArgs(account), { env });
    expect(result.code).toBe(0);
    expect(paidTo(account)).toHaveLength(1);
  });
});
