import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * Bad input: exit 2, one clear line on stderr, and nothing sent. One sandbox for the file;
 * each case counts what the sandbox received before and after.
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(() => sandbox.close());

async function refused(args: string[]) {
  const before = sandbox.received.length;
  const result = await runCli(args, { env });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(sandbox.received.length).toBe(before);
  return result;
}

const pay = ['pay', '--service', '201', '--account', 'player-42'];

// Every amount rule is a unit test (test/unit/hardening.test.ts); here, the wiring: the flag
// named in one line on stderr, exit 2, nothing sent, for pay and check.
describe('amounts', () => {
  it.each([
    ['10,00', 'uses a comma: use a dot, as in 10.00'],
    ['', 'is empty'],
  ])('pay --amount %j is refused: %s', async (amount, message) => {
    const { stderr } = await refused([...pay, '--amount', amount]);
    expect(stderr).toContain(`--amount ${amount === '' ? 'is empty' : JSON.stringify(amount)}`);
    expect(stderr).toContain(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it.each([['1e3', 'not a plain decimal']])('check --amount %j is refused too: %s', async (amount, message) => {
    const { stderr } = await refused(['check', '--service', '101', '--account', 'a', '--amount', amount]);
    expect(stderr).toContain(message);
  });

  it('pay --invoice-id with a bad --amount is refused before the account check', async () => {
    const { stderr } = await refused([
      'pay',
      '--service',
      '101',
      '--account',
      'a',
      '--invoice-id',
      '5002',
      '--amount',
      '2497,00',
    ]);
    expect(stderr).toContain('use a dot, as in 2497.00');
  });
});

describe('transaction ids', () => {
  const bad = [
    ['abc', 'is not valid: a TransactionID is digits only'],
    ['-1', 'is not valid: a TransactionID is digits only'],
    ['1.5', 'is not valid: a TransactionID is digits only'],
    ['12345678901234567890', 'too large'],
  ];

  it.each(bad)('pay --txn-id %j is refused: %s', async (id, message) => {
    const { stderr } = await refused([...pay, '--amount', '100.00', '--txn-id', id]);
    expect(stderr).toContain(`--txn-id ${JSON.stringify(id)} `);
    expect(stderr).toContain(message);
  });

  it.each(bad)('status %j is refused, and so is the good id beside it: %s', async (id, message) => {
    const { stderr } = await refused(['status', '42', id]);
    expect(stderr).toContain(`transaction id ${JSON.stringify(id)} `);
    expect(stderr).toContain(message);
  });

  it('bad lines in --from-file are reported in place; only the good ids are looked up', async () => {
    const file = join(env.HOME!, 'ids.txt');
    writeFileSync(file, ['# ids', '42', 'abc', '-1', '', '1.5', '12345678901234567890', '43'].join('\n'));
    const before = sandbox.received.length;
    const result = await runCli(['status', '--from-file', file, '--json'], { env });
    // Bad lines are 2, but 42 and 43 are not found at the sandbox (unknown, 3): the most severe wins.
    expect(result.code).toBe(3);
    const sent = sandbox.received.slice(before);
    expect(sent.map((form) => [form.get('RequestType'), form.get('TransactionID')])).toEqual([
      ['Status', '42'],
      ['Status', '43'],
    ]);
    // Under --json each bad line is a data line in its place, with the reason in `error`.
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(6);
    const reasons = lines.map((line) => (line.error as { message?: string } | undefined)?.message);
    expect(reasons).toEqual([
      undefined,
      ...(
        [
          [3, 'abc'],
          [4, '-1'],
          [6, '1.5'],
          [7, '12345678901234567890'],
        ] as const
      ).map(([line, text]) => `${file} line ${line}: ${JSON.stringify(text)} is not a transaction id`),
      undefined,
    ]);
  });
});

// An order file's account cell refuses control characters (bulk/order-cells.ts); the flags do too.
describe('control characters in --account and --service', () => {
  it.each([
    ['ESC', '70\u001b12', 'U+001B at character 3'],
    ['BEL', '7012\u0007', 'U+0007 at character 5'],
  ])('pay --account with %s exits 2 and sends nothing', async (_, account, where) => {
    const { stderr } = await refused(['pay', '--service', '201', '--account', account, '--amount', '100.00']);
    expect(stderr).toContain(`--account holds the control character ${where}; nothing was sent`);
    expect(stderr).not.toContain('\u001b');
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('check and --service refuse it too, before anything is sent', async () => {
    await refused(['check', '--service', '101', '--account', 'a\u001b[2J']);
    const { stderr } = await refused(['pay', '--service', '2\u001b01', '--account', 'a', '--amount', '1.00']);
    expect(stderr).toContain('--service holds the control character U+001B at character 2');
  });

  it('an account longer than an order file allows (64 characters) is refused as there', async () => {
    const { stderr } = await refused(['pay', '--service', '201', '--account', '7'.repeat(65), '--amount', '1.00']);
    expect(stderr).toContain('--account is longer than 64 characters');
  });
});

describe('usage errors', () => {
  it('a missing required option is named, with the usage line', async () => {
    const { stderr } = await refused(['pay', '--account', 'a', '--amount', '1']);
    expect(stderr).toContain("required option '--service <id>' not specified");
    expect(stderr).toContain(
      'usage: agentpay pay --service <id> --account <account> (--invoice-id <id> | --amount <decimal>)',
    );
  });

  it('check names its missing --account, with its usage line', async () => {
    const { stderr } = await refused(['check', '--service', '101']);
    expect(stderr).toContain("required option '--account <account>' not specified");
    expect(stderr).toContain('usage: agentpay check --service <id> --account <account>');
  });

  it.each([
    [['history', '--state', 'gone'], "option '--state <state>' argument 'gone' is invalid"],
    [['sandbox', '--garbage', 'mud'], "option '--garbage <kind>' argument 'mud' is invalid"],
  ])('%j: a value outside the choices is refused by commander, naming them', async (args, message) => {
    const { stderr } = await refused(args);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Allowed choices are');
  });

  it('pay without --invoice-id or --amount says which to give', async () => {
    const { stderr } = await refused(pay);
    expect(stderr).toContain('give --invoice-id <id> for a dynamic voucher, or --amount <decimal> for a static one');
  });

  it.each([
    [
      ['pay', '--servce', '201', '--account', 'a', '--amount', '1'],
      "unknown option '--servce'",
      '(Did you mean --service?)',
    ],
    [['--verbos', 'status', '1'], "unknown option '--verbos'", '(Did you mean --verbose?)'],
    [['status', '1', '--form-file', 'x'], "unknown option '--form-file'", '(Did you mean --from-file?)'],
    [['chek', '--service', '101'], "unknown command 'chek'", '(Did you mean check?)'],
  ])('%j suggests the nearest match', async (args, message, suggestion) => {
    const { stderr } = await refused(args);
    expect(stderr).toContain(message);
    expect(stderr).toContain(suggestion);
  });
});

describe('values reach the gateway exactly as typed', () => {
  const odd = 'a&b=c+d e%20 Жанар 😀';

  it('an account with & = + spaces, Cyrillic and emoji is one field, byte for byte', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(['pay', '--service', '201', '--account', odd, '--amount', '100.00', '--json'], { env });
    expect(result.code).toBe(0);
    const payments = paymentsReceived(sandbox).slice(before);
    expect(payments).toHaveLength(1);
    const form = payments[0]!;
    expect(form.get('Account')).toBe(odd);
    expect(form.get('Amount')).toBe('100.00');
    // Nine fields, in the order spec 4.3 lists them: nothing split into another field.
    expect([...form.keys()]).toEqual([
      'AgentID',
      'AgentPassword',
      'RequestType',
      'Service',
      'Amount',
      'Currency',
      'RequestDate',
      'TransactionID',
      'Account',
    ]);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ account: odd, state: 'success' });
  });

  it('a value that looks like more fields cannot add or replace one', async () => {
    const before = sandbox.received.length;
    const result = await runCli(
      ['check', '--service', '201&Amount=999&Service=101', '--account', 'x=1&Account=y', '--amount', '5'],
      { env },
    );
    // The sandbox knows no such service: refused, and refused as the one field it was.
    expect(result.code).toBe(1);
    const [form] = sandbox.received.slice(before);
    expect(form!.getAll('Service')).toEqual(['201&Amount=999&Service=101']);
    expect(form!.getAll('Account')).toEqual(['x=1&Account=y']);
    expect(form!.getAll('Amount')).toEqual(['5']);
  });

  it('--dry-run shows the value as it would be sent, and sends no Payment', async () => {
    const before = paymentsReceived(sandbox).length;
    const result = await runCli(
      ['pay', '--service', '201', '--account', odd, '--amount', '1.50', '--dry-run', '--json'],
      { env },
    );
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]).toMatchObject({
      dryRun: true,
      form: { Account: odd, Amount: '1.50', AgentPassword: '***' },
    });
    expect(paymentsReceived(sandbox).length).toBe(before);
  });
});
