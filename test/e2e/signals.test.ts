import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentRecord } from '../../src/ledger/records.js';
import { binPath, type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { addOperator, asRole, migrateLedger, openShift } from '../helpers/desk-roles.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { linesOf } from '../helpers/journal-lines.js';
import { defaultLedger, ledgerRecords, seedLedger } from '../helpers/ledger-file.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// SIGINT and SIGTERM while a command waits on a gateway that holds its answer (127.0.0.1):
// one line on stderr naming the signal, exit 130 or 143 (README "Exit codes"); reconcile shows
// exactly what its ledger recorded. A real PostgreSQL server for the team ledger's cases.
let postgres: PostgresServer;

beforeAll(async () => {
  postgres = await startPostgres();
}, 30_000);

afterAll(async () => {
  await postgres?.remove();
});

const envAt = (baseUrl: string, extra: Record<string, string> = {}) =>
  isolatedEnv({ AGENTPAY_BASE_URL: baseUrl, AGENTPAY_AGENT_ID: '7', AGENTPAY_PASSWORD: 'secret', ...extra });

const requestsOf = (gateway: FakeGateway, type: string) =>
  gateway.received.filter((form) => form.get('RequestType') === type);

/** Runs the command, sends `signal` once `ready()` holds (at most 10 s), and gathers what it said and how it ended. */
async function stoppedWhile(
  args: readonly string[],
  env: Record<string, string>,
  ready: () => boolean,
  signal: NodeJS.Signals,
): Promise<CliResult & { signal: string | null }> {
  const child = spawn(process.execPath, [binPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<[number | null, string | null]>((resolve) =>
    child.once('close', (code, by) => resolve([code, by])),
  );
  const deadline = Date.now() + 10_000;
  while (!ready() && Date.now() < deadline) await sleep(20);
  expect(ready(), `ready before the signal; stderr so far: ${stderr}`).toBe(true);
  child.kill(signal);
  const [code, by] = await closed;
  return { code, signal: by, stdout, stderr };
}

/** Open transactions of the gateway at `baseUrl`, agent 7, made ten minutes ago, as journal records. */
function openIntents(baseUrl: string, ids: readonly string[]): IntentRecord[] {
  const at = new Date(Date.now() - 600_000).toISOString();
  return ids.map((transactionId) => ({
    kind: 'intent' as const,
    gateway: baseUrl,
    agentId: '7',
    transactionId,
    service: '101',
    account: 'a-1',
    amount: '499.00',
    currency: 'KZT',
    invoiceId: null,
    at,
  }));
}

const cases = [
  { signal: 'SIGINT', exitCode: 130, named: 'Ctrl+C (SIGINT)' },
  { signal: 'SIGTERM', exitCode: 143, named: 'SIGTERM' },
] as const;

describe.each(cases)(
  '$signal while a command waits for the gateway: exit $exitCode and one line',
  ({ signal, exitCode, named }) => {
    it('status', async () => {
      const gateway = await startFakeGateway(() => undefined);
      try {
        const result = await stoppedWhile(
          ['status', '42'],
          envAt(gateway.baseUrl),
          () => gateway.received.length === 1,
          signal,
        );
        expect([result.code, result.signal]).toEqual([exitCode, null]);
        expect(result.stderr).toBe(`agentpay: stopped by ${named} before it finished\n`);
        expect(result.stdout).toBe('');
      } finally {
        await gateway.close();
      }
    });

    it('check', async () => {
      const gateway = await startFakeGateway(() => undefined);
      try {
        const result = await stoppedWhile(
          ['check', '--service', '101', '--account', 'a-1'],
          envAt(gateway.baseUrl),
          () => gateway.received.length === 1,
          signal,
        );
        expect([result.code, result.signal]).toEqual([exitCode, null]);
        expect(result.stderr).toBe(`agentpay: stopped by ${named} before it finished\n`);
        expect(result.stdout).toBe('');
      } finally {
        await gateway.close();
      }
    });

    it('pay during its account check, on a PostgreSQL ledger: nothing paid, nothing recorded', async () => {
      const gateway = await startFakeGateway(() => undefined);
      try {
        const ledger = await freshDatabase(postgres);
        const env = envAt(gateway.baseUrl, { AGENTPAY_LEDGER: ledger });
        await migrateLedger(env);
        const pay = ['pay', '--service', '101', '--account', 'a-1', '--invoice-id', '1'];
        const result = await stoppedWhile(pay, env, () => requestsOf(gateway, 'AccountCheck').length === 1, signal);
        expect([result.code, result.signal]).toEqual([exitCode, null]);
        expect(result.stderr).toBe(`agentpay: stopped by ${named} before the payment: nothing was paid\n`);
        expect(requestsOf(gateway, 'Payment')).toHaveLength(0);
        expect(await sql(ledger, 'SELECT count(*)::int AS n FROM agentpay_transactions')).toEqual([{ n: 0 }]);
      } finally {
        await gateway.close();
      }
    });

    // Five open transactions: the gateway answers three (success) and holds two.
    const ids = ['880000001', '880000002', '880000003', '880000004', '880000005'];
    const answered = new Set(['880000001', '880000003', '880000005']);
    const holdingGateway = () =>
      startFakeGateway((form, _request, response) => {
        if (answered.has(form.get('TransactionID') ?? '')) answer(response, 200, envelopeText(form, { status: 10 }));
      });
    const reconcileStopped = (count: number) =>
      `agentpay: stopped by ${named}: ${count} outcomes learned so far recorded in the ledger and printed above; run \`agentpay reconcile\` again for the rest\n`;

    it('reconcile on the SQLite file: what it printed is what the ledger recorded', async () => {
      const gateway = await holdingGateway();
      try {
        const env = envAt(gateway.baseUrl);
        const ledger = defaultLedger(env);
        await seedLedger(ledger, openIntents(gateway.baseUrl, ids));
        // Once every look-up is out (and the three answers had time to arrive), the signal.
        let out = 0;
        const ready = () =>
          requestsOf(gateway, 'Status').length === ids.length ? (out ||= Date.now()) + 300 < Date.now() : false;
        const result = await stoppedWhile(['--json', 'reconcile', '--concurrency', '10'], env, ready, signal);
        expect([result.code, result.signal], result.stderr).toEqual([exitCode, null]);
        const printed = jsonLines(result.stdout).map((line) => [line.transactionId, line.state]);
        const recorded = (await ledgerRecords(ledger)).flatMap((record) =>
          record.kind === 'outcome' ? [[record.transactionId, record.view.state]] : [],
        );
        expect(printed.sort()).toEqual(recorded.sort());
        expect(printed).toEqual([...answered].map((id) => [id, 'success']));
        expect(result.stderr).toBe(
          reconcileStopped(answered.size).replace(
            /^agentpay: (.*)\n$/,
            (_, message: string) => `${JSON.stringify({ error: { exitCode, type: 'InterruptedError', message } })}\n`,
          ),
        );
      } finally {
        await gateway.close();
      }
    });

    it('reconcile on PostgreSQL: the outcomes it printed are committed before it ends, and only those', async () => {
      const gateway = await holdingGateway();
      try {
        const ledger = await freshDatabase(postgres);
        const env = envAt(gateway.baseUrl, { AGENTPAY_LEDGER: ledger });
        const journal = join(env.HOME!, 'open.jsonl');
        writeFileSync(journal, linesOf(openIntents(gateway.baseUrl, ids)));
        expect((await runCli(['ledger', 'import', journal], { env })).code).toBe(0);
        let out = 0;
        const ready = () =>
          requestsOf(gateway, 'Status').length === ids.length ? (out ||= Date.now()) + 300 < Date.now() : false;
        const result = await stoppedWhile(['reconcile', '--concurrency', '10'], env, ready, signal);
        expect([result.code, result.signal]).toEqual([exitCode, null]);
        const printed = result.stdout
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => /\b(\d{9})\b/.exec(line)?.[1]);
        const rows = await sql<{ transaction_id: string; state: string }>(
          ledger,
          `SELECT t.transaction_id, r.state FROM agentpay_records r JOIN agentpay_transactions t ON t.seq = r.transaction_seq
         WHERE r.kind = 'outcome' AND r.source = 'reconcile' ORDER BY t.transaction_id`,
        );
        expect(rows).toEqual([...answered].map((id) => ({ transaction_id: id, state: 'success' })));
        expect(printed).toEqual(rows.map((row) => row.transaction_id));
        expect(result.stderr).toBe(reconcileStopped(answered.size));
      } finally {
        await gateway.close();
      }
    });
  },
);

describe.each(cases)('$signal while shift close --settle waits on a Status', ({ signal, exitCode, named }) => {
  // Without --carry-over it ended as refused (exit 3); with it, it closed the shift (exit 0).
  it.each([[[]], [['--carry-over']]])(
    `exit ${exitCode} and one line; the shift stays open, no Z-report made (%j)`,
    { timeout: 60_000 },
    async (extra: string[]) => {
      // Checks answered, a Payment answered with a code no table classifies (unknown), Status held.
      const gateway = await startFakeGateway((form, _request, response) => {
        const type = form.get('RequestType');
        if (type === 'AccountCheck') answer(response, 200, envelopeText(form));
        if (type === 'Payment') answer(response, 200, envelopeText(form, { status: 99, message: 'принят' }));
      });
      try {
        const admin = await freshDatabase(postgres);
        // Roles are the server's, not a database's: one for each signal's test.
        const role = `anna_${signal.toLowerCase()}${extra.length}`;
        await addOperator(envAt(gateway.baseUrl, { AGENTPAY_LEDGER: admin }), role);
        const anna = asRole(envAt(gateway.baseUrl, { AGENTPAY_SETTLE_ATTEMPTS: '0' }), admin, role);
        mkdirSync(join(anna.XDG_CONFIG_HOME!, 'agentpay'), { recursive: true });
        writeFileSync(
          join(anna.XDG_CONFIG_HOME!, 'agentpay', 'config.json'),
          JSON.stringify({ profiles: { default: { shifts: true } } }),
        );
        await openShift(anna);
        const pay = ['pay', '--service', '201', '--account', 'a-1', '--amount', '150.00', '--currency', 'KZT'];
        const paid = await runCli(pay, { env: anna });
        expect(paid.code, paid.stderr).toBe(3);
        const close = ['shift', 'close', '--settle', ...extra];
        const result = await stoppedWhile(close, anna, () => requestsOf(gateway, 'Status').length === 1, signal);
        expect([result.code, result.signal]).toEqual([exitCode, null]);
        expect(result.stderr).toBe(`agentpay: stopped by ${named} before it finished\n`);
        expect(await sql(admin, 'SELECT count(*)::int AS n FROM agentpay_z_reports')).toEqual([{ n: 0 }]);
        const x = await runCli(['--json', 'shift', 'x'], { env: anna });
        expect(x.code, x.stderr).toBe(0);
      } finally {
        await gateway.close();
      }
    },
  );
});

describe('a password in the ledger URL', () => {
  const url = 'postgres://ann:s3cret-pw@127.0.0.1:1/ledger';

  it('given with --ledger on the command line, draws a warning naming where to put it, never the password', async () => {
    const result = await runCli(['--ledger', url, 'history'], { env: isolatedEnv() });
    const warning = result.stderr.split('\n').find((line) => line.includes('PGPASSWORD'));
    expect(warning).toBe(
      'warning: the --ledger URL holds a password, which anyone on this machine can see in `ps`: put it in PGPASSWORD or ~/.pgpass, or give the URL in AGENTPAY_LEDGER',
    );
    expect(result.stderr).not.toContain('s3cret-pw');
  });

  it('in Russian, for a Russian locale', async () => {
    const result = await runCli(['--ledger', url, 'history'], { env: isolatedEnv({ LANG: 'ru_RU.UTF-8' }) });
    expect(result.stderr).toContain('в URL --ledger есть пароль');
    expect(result.stderr).toContain('PGPASSWORD');
    expect(result.stderr).not.toContain('s3cret-pw');
  });

  it('given in AGENTPAY_LEDGER, draws none', async () => {
    const result = await runCli(['history'], { env: isolatedEnv({ AGENTPAY_LEDGER: url }) });
    expect(result.code).toBe(4);
    expect(result.stderr).not.toContain('PGPASSWORD');
    expect(result.stderr).not.toContain('s3cret-pw');
  });
});

describe('a signal after the command has settled', () => {
  it('ends a process something left alive (a bug), with the exit code the command gave', async () => {
    const env = isolatedEnv();
    // Stands for a handle a bug left open after the command ended: it keeps the event loop alive.
    const keepAlive = join(env.HOME!, 'keep-alive.cjs');
    writeFileSync(keepAlive, 'setInterval(() => {}, 1 << 30);\n');
    const child = spawn(
      process.execPath,
      ['--require', keepAlive, binPath, 'check', '--service', '101', '--account', '7011234567'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let waited = 0; !stderr.includes('\n') && waited < 10_000; waited += 20) await sleep(20);
    expect(stderr).toContain('agentpay: not set: the gateway');
    child.kill('SIGTERM');
    // Before, the first two signals were taken for the settled command's and the process stayed.
    const code = await Promise.race([ended, sleep(5_000).then(() => 'still running')]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(2);
  });
});
