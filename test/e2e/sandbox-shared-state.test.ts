import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/client.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { embeddedStateOf, storedTransactions } from '../helpers/sandbox-state.js';

/**
 * Processes running the sandbox on one state file (a SQLite database) agree: what one made,
 * another's Status finds; one TransactionID paid in several at once is one payment.
 */

/** `agentpay sandbox --state <path>` in a process of its own, until stopped (SIGTERM: exit 0). */
async function sandboxProcess(statePath: string) {
  const child = spawn(process.execPath, [binPath, 'sandbox', '--port', '0', '--json', '--state', statePath], {
    env: isolatedEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const firstLine = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.on('exit', () => reject(new Error(`exited before its first line: ${stdout}${stderr}`)));
  });
  const info = JSON.parse(firstLine) as { baseUrl: string; agentId: string; password: string };
  return {
    /** For a client of its own (its own ledger): only the sandbox's state is shared. */
    env: () =>
      isolatedEnv({
        AGENTPAY_BASE_URL: info.baseUrl,
        AGENTPAY_AGENT_ID: info.agentId,
        AGENTPAY_PASSWORD: info.password,
      }),
    client: new GatewayClient({
      baseUrl: info.baseUrl,
      credentials: { agentId: info.agentId, wirePassword: info.password },
      timeoutMs: 10_000,
      dateFormat: 'local',
    }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const purchase = (transactionId: string) =>
  ({ service: '201', account: 'shared', amount: '5', currency: 'KZT', transactionId }) as const;

const payArgs = (transactionId: string) =>
  ['--json', 'pay', '--service', '201', '--account', 'shared', '--amount', '5', '--txn-id', transactionId] as const;

describe('two sandbox processes on one state file', () => {
  it('a payment made at one is found by the other; one TransactionID paid at both at once is one payment', async () => {
    const statePath = join(isolatedEnv().HOME!, 'shared-state.sqlite');
    const [one, two] = await Promise.all([sandboxProcess(statePath), sandboxProcess(statePath)]);
    try {
      const paid = await runCli(payArgs('4200000000000001'), { env: one.env() });
      expect(paid.code, paid.stderr).toBe(0);
      const found = await runCli(['--json', 'status', '4200000000000001'], { env: two.env() });
      expect(found.code, found.stderr).toBe(0);
      expect(jsonLines(found.stdout)[0]).toMatchObject({
        state: 'success',
        requestId: jsonLines(paid.stdout)[0]!.requestId,
        amount: '5',
      });

      // Each id at both processes at once, many times over: a window between one's look-up and
      // its write would let the other make a second payment.
      const ids = Array.from({ length: 40 }, (_, i) => String(4200000000000100 + i));
      const answers = await Promise.all(
        ids.map((id) => Promise.all([one, two].map((sandbox) => sandbox.client.payment(purchase(id))))),
      );
      const stored = storedTransactions(statePath);
      expect(stored.map((t) => t.transactionId)).toEqual(['4200000000000001', ...ids]);
      for (const [i, id] of ids.entries())
        expect(answers[i]!.map((answer) => answer.requestId)).toEqual(
          Array(2).fill(stored.find((t) => t.transactionId === id)!.requestId),
        );
      expect(new Set(stored.map((t) => t.requestId)).size).toBe(stored.length);
    } finally {
      await Promise.all([one.client.close(), two.client.close()]);
      expect(await Promise.all([one.stop(), two.stop()])).toEqual([0, 0]);
    }
  }, 60_000);
});

describe('a state file another process is making', () => {
  it('the sandbox waits for its lock (SQLite says busy at once to a switch to WAL), then serves', async () => {
    const statePath = join(isolatedEnv().HOME!, 'made-now.sqlite');
    mkdirSync(dirname(statePath), { recursive: true });
    // What the first of two sandboxes holds while it makes the file: the write lock, before WAL.
    const maker = new DatabaseSync(statePath);
    maker.exec('BEGIN IMMEDIATE');
    setTimeout(() => maker.exec('COMMIT'), 300);
    const waited = await sandboxProcess(statePath);
    maker.close();
    await waited.client.close();
    expect(await waited.stop()).toBe(0);
  });
});

describe('--sandbox in several processes at once', () => {
  it('sharing XDG_STATE_HOME, they pay one TransactionID once and a later status finds it', async () => {
    const shared = isolatedEnv();
    const racing = await Promise.all(
      [1, 2, 3].map(() => runCli(['--sandbox', ...payArgs('4300000000000001')], { env: shared })),
    );
    for (const result of racing) expect(result.code, result.stderr).toBe(0);
    const stored = storedTransactions(embeddedStateOf(shared));
    expect(stored.map((t) => [t.transactionId, t.account, t.amount])).toEqual([['4300000000000001', 'shared', '5']]);
    expect(racing.map((result) => jsonLines(result.stdout).at(-1)!.requestId)).toEqual(
      Array(3).fill(stored[0]!.requestId),
    );
    const status = await runCli(['--sandbox', '--json', 'status', '4300000000000001'], { env: shared });
    expect(status.code, status.stderr).toBe(0);
    expect(jsonLines(status.stdout)[0]).toMatchObject({ state: 'success', requestId: stored[0]!.requestId });
  }, 60_000);
});

describe('a state file that is no SQLite database', () => {
  it('is refused (exit 2), named, and left as it was: by `agentpay sandbox --state` and by --sandbox', async () => {
    const env = isolatedEnv();
    const old = '{"agentId":"1001","transactionId":"1","requestId":"9007199254740993"}\n';
    const given = join(env.HOME!, 'sandbox-state.jsonl');
    writeFileSync(given, old);
    const served = await runCli(['sandbox', '--port', '0', '--state', given], { env });
    expect(served.code).toBe(2);
    expect(served.stderr).toContain(`cannot open the sandbox state ${given}: file is not a database`);
    expect(served.stderr).toContain('give --state a new file or a SQLite database the sandbox wrote');

    const embedded = embeddedStateOf(env);
    mkdirSync(dirname(embedded), { recursive: true });
    writeFileSync(embedded, old);
    const paid = await runCli(['--sandbox', ...payArgs('4400000000000001')], { env });
    expect(paid.code).toBe(2);
    expect(jsonLines(paid.stderr)[0]).toMatchObject({
      error: {
        message: `cannot open the sandbox state ${embedded}: file is not a database`,
        hint: 'move that file away: --sandbox starts a new one (it holds only play money)',
      },
    });
    for (const path of [given, embedded]) expect(readFileSync(path, 'utf8')).toBe(old);
  });
});
