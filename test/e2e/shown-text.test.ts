import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import type { FakeGateway } from '../helpers/fake-gateway.js';
import {
  hostileMessage,
  hostileRefusal,
  hostileSequences,
  hostileVouchers,
  rawAnswerId,
  startHostileGateway,
} from '../helpers/hostile-gateway.js';

// A gateway's texts reach a person through one sanitizer (src/render/sanitize.ts): every
// command that shows them, in English and Russian, writes no character a terminal would act on,
// and shows each as its escape; --json keeps the gateway's exact text.
let gateway: FakeGateway;
beforeAll(async () => {
  gateway = await startHostileGateway();
});
afterAll(() => gateway.close());

/** What a terminal acts on rather than draws: C0 but LF, DEL, C1, bidi controls. */
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function expectShownSafely(result: CliResult): void {
  for (const [stream, text] of Object.entries({ stdout: result.stdout, stderr: result.stderr })) {
    const found = rawControl.exec(text);
    expect(found, `${stream} holds U+${found?.[0].codePointAt(0)?.toString(16).padStart(4, '0')}:\n${text}`).toBeNull();
  }
}

/** Every sequence shown as its escape, in `text`. */
function expectEverySequenceShown(text: string): void {
  for (const { kind, shown } of hostileSequences) expect(text, kind).toContain(shown);
}

const envFor = (extra: Record<string, string> = {}) =>
  isolatedEnv({
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
    AGENTPAY_FAILED_CODES: hostileRefusal,
    // Wide enough that no table wraps a name inside its escapes.
    COLUMNS: '300',
    ...extra,
  });

const ordersFile = (lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'agentpay-shown-')), 'orders.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe.each(['en', 'ru'])('--lang %s: a hostile gateway cannot take over the terminal', (lang) => {
  // One journal for the language's commands: receipt reads what pay recorded.
  let env: Record<string, string>;
  beforeAll(() => {
    env = envFor();
  });
  const run = (args: string[]) => runCli(['--lang', lang, ...args], { env });
  const txnId = lang === 'en' ? '424242001' : '424242002';

  it('check: every voucher name in the table, each sequence shown as its escape', async () => {
    const result = await run(['check', '--service', '101', '--account', 'player-1']);
    expect(result.code).toBe(0);
    expectShownSafely(result);
    expectEverySequenceShown(result.stdout);
  });

  it('pay: the receipt shows the Message with its escapes', async () => {
    const result = await run([
      'pay',
      '--service',
      '101',
      '--account',
      `player-${lang}`,
      '--invoice-id',
      '5001',
      '--txn-id',
      txnId,
    ]);
    expect(result.code).toBe(0);
    expectShownSafely(result);
    expectEverySequenceShown(result.stdout);
    expect(result.stdout).toContain('Платёж принят');
  });

  it('status and receipt: the Message, and the voucher name the ledger kept', async () => {
    const status = await run(['status', txnId]);
    expect(status.code).toBe(0);
    expectShownSafely(status);
    expectEverySequenceShown(status.stdout);
    const receipt = await run(['receipt', txnId]);
    expect(receipt.code).toBe(0);
    expectShownSafely(receipt);
    expectEverySequenceShown(receipt.stdout);
    // The voucher bought, 5001: its name as the ledger kept it.
    expect(receipt.stdout).toContain(`Coins 1 ${hostileSequences[0].shown}`);
    const many = await run(['status', txnId, rawAnswerId]);
    expectShownSafely(many);
    expectEverySequenceShown(many.stdout);
  });

  it('a refusal: the error quoting the Message is shown with its escapes', async () => {
    const result = await run(['pay', '--service', '101', '--account', 'refuse', '--invoice-id', '5002']);
    expect(result.code).toBe(1);
    expectShownSafely(result);
    expectEverySequenceShown(result.stderr);
  });

  it('--verbose: the trace of each answer, and an answer of raw control bytes with its first bytes', async () => {
    const paid = await run([
      '--verbose',
      'pay',
      '--service',
      '101',
      '--account',
      `verbose-${lang}`,
      '--invoice-id',
      '5003',
    ]);
    expect(paid.code).toBe(0);
    expectShownSafely(paid);
    expect(paid.stderr).toContain('← HTTP 200');
    expect(paid.stderr).toContain('\\u202e');
    const raw = await run(['--verbose', 'status', rawAnswerId]);
    expect(raw.code).toBe(5);
    expectShownSafely(raw);
    expect(raw.stderr).toContain('\\x1b]0;PWNED\\x07\\x1b[2J\\x1b[31m\\u202e\\x9b2J');
  });

  it('pay --from-file: the plan and each result line, order cells from outside too', async () => {
    const orders = ordersFile([
      'key,service,account,invoice-id',
      // A cell may not hold a control character (the row is refused), a bidi override it may.
      ...hostileVouchers.map(
        (v, index) => `K${index + 1},101,acct-${lang}-${index}${index === 2 ? '\u202e' : ''},${v.invoiceId}`,
      ),
    ]);
    const plan = await run(['pay', '--from-file', orders, '--dry-run']);
    expect(plan.code).toBe(0);
    expectShownSafely(plan);
    expectEverySequenceShown(plan.stdout);
    const paid = await run(['pay', '--from-file', orders, '--yes']);
    expect(paid.code).toBe(0);
    expectShownSafely(paid);
    const lines = paid.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(hostileVouchers.length);
    for (const line of lines) expectEverySequenceShown(line);
    expect(paid.stdout).toContain(`acct-${lang}-2\\u202e`);
  });
});

describe('on a colour terminal too', () => {
  it("our colour is kept, the gateway's is shown as its escape", async () => {
    const env = envFor({ FORCE_COLOR: '1' });
    delete env.NO_COLOR;
    const result = await runCli(['pay', '--service', '101', '--account', 'colour', '--invoice-id', '5001'], { env });
    expect(result.code).toBe(0);
    // Ours: SGR sequences, which the Style writes; nothing else may be raw, and the gateway's colour is not ours.
    const ourColour = /\u001b\[[0-9;]*m/g;
    expect(result.stdout).toMatch(ourColour);
    expectShownSafely({
      ...result,
      stdout: result.stdout.replace(ourColour, ''),
      stderr: result.stderr.replace(ourColour, ''),
    });
    expect(result.stdout).not.toContain('\u001b[31mred');
    expectEverySequenceShown(result.stdout);
    const refused = await runCli(
      ['--verbose', 'pay', '--service', '101', '--account', 'refuse', '--invoice-id', '5002'],
      { env },
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).not.toContain('\u001b[31mred');
    expectShownSafely({
      ...refused,
      stdout: refused.stdout.replace(ourColour, ''),
      stderr: refused.stderr.replace(ourColour, ''),
    });
    expectEverySequenceShown(refused.stderr);
  });
});

describe('--json keeps the exact text', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = envFor();
  });

  it("pay, status, receipt and check lines round-trip the gateway's Message and voucher names", async () => {
    const paid = await runCli(
      ['--json', 'pay', '--service', '101', '--account', 'json', '--invoice-id', '5004', '--txn-id', '424242010'],
      { env },
    );
    expect(paid.code).toBe(0);
    expect(jsonLines(paid.stdout)[0]?.message).toBe(hostileMessage);
    const status = await runCli(['--json', 'status', '424242010'], { env });
    expect(jsonLines(status.stdout)[0]?.message).toBe(hostileMessage);
    const receipt = await runCli(['--json', 'receipt', '424242010'], { env });
    expect(jsonLines(receipt.stdout)[0]).toMatchObject({ message: hostileMessage, voucher: hostileVouchers[3]!.name });
    const check = await runCli(['--json', 'check', '--service', '101', '--account', 'json'], { env });
    const vouchers = jsonLines(check.stdout)[0]?.vouchers as { name: string }[];
    expect(vouchers.map((v) => v.name)).toEqual(hostileVouchers.map((v) => v.name));
  });

  it("pay --from-file --json: each row's Message, voucher and account exactly", async () => {
    const account = 'acct-json\u202e\u2066';
    const orders = ordersFile(['key,service,account,invoice-id', `J1,101,${account},5005`]);
    const paid = await runCli(['--json', 'pay', '--from-file', orders, '--yes'], { env });
    expect(paid.code).toBe(0);
    expect(jsonLines(paid.stdout)).toEqual([
      expect.objectContaining({ message: hostileMessage, voucher: hostileVouchers[4]!.name, account }),
    ]);
  });
});
