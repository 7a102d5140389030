import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/protocol/password.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { ansiEscape, jsonLines, runCli } from '../helpers/cli.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';

/** What stdout and stderr carry: --json discipline, --dry-run, --verbose, colour. */
let sandbox: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(async () => {
  await sandbox.close();
});

const password = sandboxCredentials.password;
const digest = md5Hex(password);

/** Every non-empty line of a stream parses as one JSON object. */
function expectJsonLinesOnly(text: string): Record<string, unknown>[] {
  const lines = text.split('\n').filter((line) => line !== '');
  for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  return jsonLines(text);
}

describe('--json', () => {
  it('check: one line, the vouchers with exact amounts, the envelope as received', async () => {
    const result = await runCli(
      ['--json', 'check', '--service', '102', '--currency', 'USD', '--account', 'player-42'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = expectJsonLinesOnly(result.stdout);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      type: 'AccountCheck',
      status: '10',
      state: 'success',
      service: '102',
      account: 'player-42',
      currency: 'USD',
      exchangeRate: '0.921',
    });
    expect(line!.vouchers).toEqual([
      { position: 1, fieldName: 'Invoice-1', invoiceId: '7010', orderAmount: '10.630', name: 'Gift card 10 EUR' },
      { position: 2, fieldName: 'Invoice-2', invoiceId: '7025', orderAmount: '26.575', name: 'Gift card 25 EUR' },
      { position: 3, fieldName: 'Invoice-3', invoiceId: '7050', orderAmount: '53.150', name: 'Gift card 50 EUR' },
    ]);
    // The envelope keeps the gateway's number text: 0.921, not a re-rounded double.
    expect(result.stdout).toContain('"envelope":{"TransactinID":');
    expect(result.stdout).toContain('"ExchangeRate":0.921');
  });

  it.each([
    ['a refusal', ['check', '--service', '101', '--account', '0000000000'], 1, 'GatewayRefusedError'],
    ['a bad amount', ['pay', '--service', '201', '--account', 'a', '--amount', '10,00'], 2, 'InvalidFieldError'],
    ['a missing option', ['pay', '--account', 'a', '--amount', '1'], 2, undefined],
    ['an unknown command', ['chek'], 2, undefined],
    ['an unknown option', ['status', '1', '--colour'], 2, undefined],
  ])('%s: stdout only JSON lines, the error one JSON line on stderr', async (_name, args, exitCode, type) => {
    const result = await runCli(['--json', ...args], { env });
    expect(result.code).toBe(exitCode);
    expectJsonLinesOnly(result.stdout);
    const errors = expectJsonLinesOnly(result.stderr);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toEqual({ error: expect.objectContaining({ exitCode, message: expect.any(String) }) });
    if (type) expect((errors[0]!.error as { type: string }).type).toBe(type);
    if (args[0] === 'chek')
      expect(errors[0]!.error).toMatchObject({ message: "unknown command 'chek'", hint: '(Did you mean check?)' });
  });

  it('--json after the command name counts too', async () => {
    const result = await runCli(['status', '424242', '--json'], { env });
    expect(result.code).toBe(3);
    expect(expectJsonLinesOnly(result.stdout)).toHaveLength(1);
    expect(expectJsonLinesOnly(result.stderr)).toHaveLength(1);
  });
});

describe('--dry-run', () => {
  it('prints the Payment form with AgentPassword *** and sends nothing', async () => {
    const before = sandbox.received.length;
    const result = await runCli(
      ['pay', '--service', '201', '--account', 'a b&c', '--amount', '150.50', '--txn-id', '555', '--dry-run'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(sandbox.received.length).toBe(before);
    expect(result.stdout).toMatch(new RegExp(`^POST ${sandbox.baseUrl}/home/index\\n`));
    expect(result.stdout).toMatch(/AgentPassword\s+\*\*\*\n/);
    expect(result.stdout).toMatch(/RequestType\s+Payment\n/);
    expect(result.stdout).toMatch(/Amount\s+150\.50\n/);
    expect(result.stdout).toMatch(/Account\s+a b&c\n/);
    expect(result.stdout).toMatch(/TransactionID\s+555\n/);
    expect(result.stdout).not.toContain('Extra');
    expect(result.stderr).toContain('dry run');
    expect(result.stdout + result.stderr).not.toContain(password);
  });

  it('with --json and --invoice-id: the exact OrderAmount and Extra fields, and only the AccountCheck sent', async () => {
    const before = sandbox.received.length;
    const result = await runCli(
      [
        '--json',
        '--password-format',
        'md5',
        'pay',
        '--service',
        '102',
        '--currency',
        'USD',
        '--account',
        'a',
        '--invoice-id',
        '7010',
        '--dry-run',
      ],
      {
        env,
      },
    );
    expect(result.code).toBe(0);
    const [line] = expectJsonLinesOnly(result.stdout);
    expect(line).toMatchObject({
      dryRun: true,
      form: {
        AgentID: '1001',
        AgentPassword: '***',
        RequestType: 'Payment',
        Amount: '10.630',
        'Extra[0].Name': 'InvoiceId',
        'Extra[0].Value': '7010',
      },
    });
    expect(sandbox.received.slice(before).map((form) => form.get('RequestType'))).toEqual(['AccountCheck']);
    expect(result.stdout + result.stderr).not.toContain(digest);
  });
});

describe('--verbose', () => {
  it.each(['plain', 'md5'])(
    'traces each exchange on stderr; the password (%s) and its MD5 appear nowhere',
    async (format) => {
      const result = await runCli(
        [
          '-v',
          '--password-format',
          format,
          'pay',
          '--service',
          '101',
          '--account',
          '7011234567',
          '--invoice-id',
          '5001',
          '--allow-duplicate',
        ],
        { env },
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(new RegExp(`→ POST ${sandbox.baseUrl}/home/index AccountCheck`));
      expect(result.stderr).toMatch(new RegExp(`→ POST ${sandbox.baseUrl}/home/index Payment`));
      expect(result.stderr).toMatch(/← HTTP 200 in \d+ ms/);
      expect(result.stderr).toContain('"AgentPassword":"***"');
      expect(result.stdout).not.toContain('→');
      for (const secret of [password, digest]) {
        expect(result.stdout).not.toContain(secret);
        expect(result.stderr).not.toContain(secret);
      }
      expect(sandbox.received.at(-1)?.get('AgentPassword')).toBe(format === 'md5' ? digest : password);
    },
  );

  it('a refusal under --verbose shows the trace and the one-line message, no stack: it is no crash', async () => {
    const result = await runCli(['--verbose', 'check', '--service', '101', '--account', '0000000000'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('→ POST');
    expect(result.stderr).toContain('agentpay: the gateway refused the account check');
    expect(result.stderr).not.toContain('GatewayRefusedError');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain(password);
  });

  // An answer not understood under --verbose (first bytes, no stack): broken-answers.test.ts, for each kind.

  it('an internal error (a bug) is exit 70, never 1; its stack only under --verbose', async () => {
    const fault = ['--require', fileURLToPath(new URL('../helpers/internal-fault.cjs', import.meta.url))];
    const plain = await runCli(['history'], { env, nodeArgs: fault });
    expect(plain.code).toBe(70);
    expect(plain.stderr).toContain('agentpay: internal error: injected fault: read is broken');
    expect(plain.stderr).toContain('run `agentpay reconcile` before paying again');
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const verbose = await runCli(['-v', 'history'], { env, nodeArgs: fault });
    expect(verbose.code).toBe(70);
    expect(verbose.stderr).toMatch(/TypeError: injected fault[^\n]*\n\s+at /);
    const json = await runCli(['--json', 'history'], { env, nodeArgs: fault });
    expect(json.code).toBe(70);
    expect(jsonLines(json.stderr)).toEqual([
      {
        error: expect.objectContaining({
          exitCode: 70,
          type: 'InternalError',
          message: 'injected fault: read is broken',
        }),
      },
    ]);
  });
});

describe('colour', () => {
  const check = ['check', '--service', '101', '--account', '7011234567'];

  it.each([
    ['NO_COLOR', {}, []],
    ['--no-color', { FORCE_COLOR: '1' }, ['--no-color']],
  ])('%s: no escape sequence anywhere', async (_name, extra, flags) => {
    const colourless = envFor(sandbox, extra);
    const result = await runCli([...flags, ...check], { env: colourless });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ansiEscape);
    expect(result.stderr).not.toMatch(ansiEscape);
  });

  it('FORCE_COLOR=1 colours output that is not a terminal', async () => {
    const coloured = envFor(sandbox, { FORCE_COLOR: '1' });
    delete coloured.NO_COLOR;
    const result = await runCli(check, { env: coloured });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(ansiEscape);
    expect(result.stderr).toMatch(ansiEscape);
    // ... but never the JSON.
    const json = await runCli(['--json', ...check], { env: coloured });
    expect(json.stdout).not.toMatch(ansiEscape);
    expectJsonLinesOnly(json.stdout);
  });

  it('a pipe without FORCE_COLOR gets no colour', async () => {
    const plain = envFor(sandbox);
    delete plain.NO_COLOR;
    const result = await runCli(check, { env: plain });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(ansiEscape);
    expect(result.stderr).not.toMatch(ansiEscape);
  });
});
