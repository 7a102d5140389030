import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fake-gateway.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
const paid: string[] = [];

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
  // Two transactions to look up, made through the client the CLI uses.
  for (const txn of ['1001001', '1001002']) {
    const result = await runCli(
      ['pay', '--service', '201', '--account', `a-${txn}`, '--amount', '5', '--txn-id', txn],
      { env },
    );
    expect(result.code).toBe(0);
    paid.push(txn);
  }
});
afterAll(async () => {
  await sandbox.close();
});

describe('status batches', () => {
  it('--from-file: ids in input order, comments and blanks skipped, a bad line reported in its place (exit 2)', async () => {
    const file = join(env.HOME!, 'ids.txt');
    writeFileSync(file, `# reconciliation\n${paid[0]}\n\n  not-an-id  \n${paid[1]}\n404404\n`);
    const result = await runCli(['--json', 'status', '--from-file', file], { env });
    // The bad line is 2; 404404, not found at the gateway, is unknown (3): the most severe wins.
    expect(result.code).toBe(3);
    const lines = jsonLines(result.stdout);
    expect(lines.map((line) => [line.transactionId, line.state])).toEqual([
      [paid[0], 'success'],
      ['', 'unknown'],
      [paid[1], 'success'],
      ['404404', 'unknown'],
    ]);
    expect(lines[1]!.error).toEqual({ exitCode: 2, message: `${file} line 4: "not-an-id" is not a transaction id` });
    // Under --json, stderr is JSON lines too: the per-line problem is in the data line's
    // `error` field, so stderr holds only the summary error.
    const errors = jsonLines(result.stderr);
    expect(errors).toHaveLength(1);
    // The bad line is no look-up: counted apart (its exit 2 still counts toward the batch).
    expect(errors[0]).toEqual({
      error: expect.objectContaining({
        exitCode: 3,
        message: '3 looked up, 1 line not an id: 2 success, 0 failed, 0 pending, 1 unknown',
      }),
    });
  });

  it('--from-file - reads stdin after the ids on the command line; one line each, summary on stderr', async () => {
    const result = await runCli(['status', paid[1]!, '--from-file', '-'], { env, input: `${paid[0]}\n12x\n` });
    expect(result.code).toBe(2);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^✓  ${paid[1]}  success  10  \\d+  5 KZT  Успех$`));
    expect(lines[1]).toMatch(new RegExp(`^✓  ${paid[0]}  success`));
    expect(result.stderr).toContain('✗ input: stdin line 2: "12x" is not a transaction id');
    expect(result.stderr).toContain('2 looked up, 1 line not an id: 2 success, 0 failed, 0 pending, 0 unknown');
  });

  it('several lines not ids are counted apart, in the plural; none looked up still exits 2', async () => {
    const result = await runCli(['status', '--from-file', '-'], { env, input: 'x1\n\n2y\n' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('0 looked up, 2 lines not ids: 0 success, 0 failed, 0 pending, 0 unknown');
  });

  it('--from-file - with the password on stdin too is refused before anything is read or sent', async () => {
    const { AGENTPAY_PASSWORD: password, ...withoutPassword } = env;
    const before = sandbox.received.length;
    for (const passwordFrom of [['--password-file', '-'], []]) {
      const extra = passwordFrom.length === 0 ? { AGENTPAY_PASSWORD_FILE: '-' } : {};
      const result = await runCli([...passwordFrom, 'status', '--from-file', '-'], {
        env: { ...withoutPassword, ...extra },
        input: `${password}\n${paid[0]}\n`,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('stdin cannot hold both the password and the ids');
      expect(result.stdout).toBe('');
    }
    expect(sandbox.received.length).toBe(before);
  });

  it('a batch exits with its most severe code: success and not-found is 3 (not found is not final)', async () => {
    const result = await runCli(['status', paid[0]!, '777777', paid[1]!, '--concurrency', '1'], { env });
    expect(result.code).toBe(3);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('  ')[1]),
    ).toEqual([paid[0], '777777', paid[1]]);
  });

  it('a missing --from-file is exit 2', async () => {
    const result = await runCli(['status', '--from-file', join(env.HOME!, 'missing.txt')], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read --from-file');
  });

  it('an unreachable gateway makes a batch exit 4', async () => {
    const result = await runCli(['--json', 'status', '1', '2'], {
      env: envFor(sandbox, { AGENTPAY_BASE_URL: await closedPortUrl() }),
    });
    expect(result.code).toBe(4);
    expect(jsonLines(result.stdout).map((line) => [line.state, (line.error as { exitCode: number }).exitCode])).toEqual(
      [
        ['unknown', 4],
        ['unknown', 4],
      ],
    );
  });
});

describe('--sandbox', () => {
  it('pay, then status in another process with the same XDG_STATE_HOME: they agree', async () => {
    const shared = isolatedEnv();
    const payment = await runCli(
      ['--sandbox', '--json', 'pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002'],
      { env: shared },
    );
    expect(payment.code).toBe(0);
    const [paidView] = jsonLines(payment.stdout);
    expect(paidView).toMatchObject({ state: 'success', amount: '2497.00', requestId: '9007199254740993' });

    const status = await runCli(['status', paidView!.transactionId as string, '--sandbox', '--json'], { env: shared });
    expect(status.code).toBe(0);
    expect(jsonLines(status.stdout)).toEqual([{ ...paidView, type: 'Status' }]);

    // Another state directory knows nothing of it.
    const elsewhere = await runCli(['--sandbox', 'status', paidView!.transactionId as string], { env: isolatedEnv() });
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toContain('not found at the gateway');
  });

  it('ignores a gateway configured in the environment; takes its demo password as MD5 too', async () => {
    const result = await runCli(
      ['--sandbox', '--password-format', 'md5', 'check', '--service', '101', '--account', 'a'],
      {
        env: isolatedEnv({ AGENTPAY_BASE_URL: await closedPortUrl(), AGENTPAY_AGENT_ID: '9' }),
      },
    );
    expect(result.code).toBe(0);
  });

  it('--sandbox with --base-url is exit 2', async () => {
    const result = await runCli(['--sandbox', '--base-url', sandbox.baseUrl, 'status', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--sandbox and --base-url cannot be used together');
  });
});

describe('agentpay sandbox', () => {
  it('--json prints one line describing itself first, serves requests, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [binPath, 'sandbox', '--port', '0', '--json'], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let stdout = '';
      const firstLine = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no first line; stdout so far: ${stdout}`)), 10_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          const end = stdout.indexOf('\n');
          if (end >= 0) {
            clearTimeout(timer);
            resolve(stdout.slice(0, end));
          }
        });
        child.on('exit', () => reject(new Error(`exited before its first line: ${stdout}`)));
      });
      const info = JSON.parse(firstLine) as {
        baseUrl: string;
        agentId: string;
        password: string;
        services: { id: string; kind: string; name: string; currency: string }[];
        accounts: { account: string; accepted: boolean }[];
      };
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info).toMatchObject({ agentId: '1001', password: 'sandbox-demo-password' });
      expect(info.services.map((s) => [s.id, s.kind, s.currency])).toEqual([
        ['101', 'dynamic', 'KZT'],
        ['102', 'dynamic', 'USD'],
        ['201', 'static', 'KZT'],
        ['202', 'static', 'KZT'],
      ]);
      expect(info.accounts.find((a) => a.account === '0000000000')?.accepted).toBe(false);

      const result = await runCli(['check', '--service', '102', '--currency', 'USD', '--account', 'a', '--json'], {
        env: isolatedEnv({
          AGENTPAY_BASE_URL: info.baseUrl,
          AGENTPAY_AGENT_ID: info.agentId,
          AGENTPAY_PASSWORD: info.password,
        }),
      });
      expect(result.code).toBe(0);
      expect((jsonLines(result.stdout)[0]!.vouchers as { orderAmount: string }[])[0]?.orderAmount).toBe('10.630');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('a port in use is exit 2', async () => {
    const port = new URL(sandbox.baseUrl).port;
    const result = await runCli(['sandbox', '--port', port]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  });
});
