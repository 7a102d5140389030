import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { type OddShapesGateway, oddShapes, startOddShapesGateway } from '../helpers/odd-shapes-gateway.js';

/**
 * --record against a gateway that answers in its own shapes, then --replay of what it said
 * (docs/replay.md), through the real bin: the same output, a cassette without the password,
 * refusals for what was never recorded, the sandbox behind a replay, a scenario on one.
 */
const password = 'Pässwort-7!';
const md5 = createHash('md5').update(password, 'utf8').digest('hex');
const { service, account, invoiceId } = oddShapes;

let gateway: OddShapesGateway;
const cassettes = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'cassettes');
/** stdout of each command against the live gateway, its TransactionID made <txn>. */
const live: Record<string, string> = {};

const codes = { AGENTPAY_NOT_FOUND_CODES: oddShapes.notFoundCode };
const liveEnv = () =>
  isolatedEnv({
    ...codes,
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: '4242',
    AGENTPAY_PASSWORD: password,
    AGENTPAY_PASSWORD_FORMAT: 'md5',
  });
const checkArgs = ['check', '--service', service, '--account', account];
const payArgs = ['pay', '--service', service, '--account', account, '--invoice-id', invoiceId];

/** The TransactionID a pay printed (its receipt's line, or its JSON). */
function transactionIdOf(stdout: string): string {
  const id = /TransactionID\s+(\d+)/.exec(stdout)?.[1];
  if (id === undefined) throw new Error(`no TransactionID in ${stdout}`);
  return id;
}
const normalised = (stdout: string, id: string) => stdout.replaceAll(id, '<txn>');

beforeAll(async () => {
  gateway = await startOddShapesGateway();
  const env = liveEnv();
  const check = await runCli(['--record', cassettes, ...checkArgs], { env });
  expect(check.code, check.stderr).toBe(0);
  live.check = check.stdout;
  const pay = await runCli(['--record', cassettes, ...payArgs], { env });
  expect(pay.code, pay.stderr).toBe(0);
  const paid = transactionIdOf(pay.stdout);
  live.pay = normalised(pay.stdout, paid);
  const status = await runCli(['--record', cassettes, 'status', paid], { env });
  expect(status.code, status.stderr).toBe(0);
  live.status = normalised(status.stdout, paid);
});
afterAll(async () => {
  await gateway.close();
});

describe('--record', () => {
  it('writes one readable file per exchange: the request without the password, the answer as it came', () => {
    const files = readdirSync(cassettes).sort();
    // pay asks AccountCheck for its voucher first.
    expect(files).toEqual([
      `0001-AccountCheck-${service}.json`,
      `0002-AccountCheck-${service}.json`,
      `0003-Payment-${service}.json`,
      '0004-Status.json',
    ]);
    const payment = JSON.parse(readFileSync(join(cassettes, files[2]!), 'utf8'));
    expect(payment.request).toMatchObject({ AgentID: '4242', RequestType: 'Payment', Service: service });
    expect(payment.request).not.toHaveProperty('AgentPassword');
    expect(payment.answer.status).toBe(200);
    expect(payment.answer.headers).toEqual({ 'content-type': 'application/json; charset=windows-1251' });
    const bytes = Buffer.from(payment.answer.body, 'base64');
    // windows-1251 as it arrived: "Платёж" is П=0xCF л=0xEB а=0xE0 т=0xF2 ё=0xB8 ж=0xE6.
    expect(bytes.includes(Buffer.from([0xcf, 0xeb, 0xe0, 0xf2, 0xb8, 0xe6]))).toBe(true);
    expect(payment.answer.text).toContain(oddShapes.payMessage);
  });

  it('holds the password in no form: plain, MD5 in either case, base64, form-encoded', () => {
    // The gateway did receive it: the test looks for what was there to leak.
    expect(gateway.bodies.every((body) => body.includes(`AgentPassword=${md5}`))).toBe(true);
    const forms = [password, md5, md5.toUpperCase(), encodeURIComponent(password)];
    const spellings = [...forms, ...forms.map((form) => Buffer.from(form).toString('base64'))];
    for (const file of readdirSync(cassettes)) {
      const text = readFileSync(join(cassettes, file), 'utf8');
      const body = Buffer.from(JSON.parse(text).answer.body, 'base64').toString('latin1');
      for (const spelling of spellings) {
        expect(text).not.toContain(spelling);
        expect(body).not.toContain(spelling);
      }
    }
  });

  it('never changes what is sent: the gateway gets the same bytes with and without it', async () => {
    const other = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'again');
    const paid = '1795000000000000001';
    // Each run its own journal, so the second is no duplicate; the gateway answers the repeat as the first.
    const sent = async (args: string[]) => {
      const before = gateway.bodies.length;
      const result = await runCli(args, { env: liveEnv() });
      expect(result.code, result.stderr).toBe(0);
      return gateway.bodies
        .slice(before)
        .map((body) => body.replace(/RequestDate=[^&]*/, 'RequestDate=*'))
        .map((body) => body.replace(/TransactionID=(\d+)/, (field, id) => (id === paid ? field : 'TransactionID=*')));
    };
    const args = [...payArgs, '--txn-id', paid];
    const recorded = await sent(['--record', other, ...args]);
    expect(recorded).toHaveLength(2);
    expect(recorded[1]).toContain(`TransactionID=${paid}`);
    expect(await sent(args)).toEqual(recorded);
    expect(readdirSync(other)).toEqual([`0001-AccountCheck-${service}.json`, `0002-Payment-${service}.json`]);
  });

  it('records a batch too: status --from-file', async () => {
    const batch = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'batch');
    const ids = ['1795000000000000011', '1795000000000000012'];
    const result = await runCli(['--record', batch, 'status', '--from-file', '-'], {
      env: liveEnv(),
      input: `${ids.join('\n')}\n`,
    });
    expect(result.stdout).toContain('Транзакция не найдена');
    const files = readdirSync(batch).sort();
    expect(files).toEqual(['0001-Status.json', '0002-Status.json']);
    const asked = files.map((file) => JSON.parse(readFileSync(join(batch, file), 'utf8')).request.TransactionID);
    expect(asked.sort()).toEqual(ids);
  });

  it('refuses a directory it cannot write before anything is sent, exit 2', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'a-file');
    writeFileSync(file, '');
    const before = gateway.bodies.length;
    const result = await runCli(['--record', join(file, 'under'), ...payArgs], { env: liveEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot record into ${join(file, 'under')}: ENOTDIR`);
    expect(result.stderr).toContain('nothing was sent');
    expect(gateway.bodies.length).toBe(before);
  });

  it('with --sandbox, ends after refusing such a directory (the embedded gateway is stopped)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'a-file');
    writeFileSync(file, '');
    // Before, the sandbox listening in the process kept it alive once the error was printed:
    // this run never ended, and the test timed out.
    const result = await runCli([
      '--sandbox',
      '--record',
      join(file, 'under'),
      'check',
      '--service',
      '101',
      '--account',
      '7011234567',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot record into ${join(file, 'under')}: ENOTDIR`);
  });
});

describe('--replay', () => {
  it('check, pay and status print what they printed against the live gateway', async () => {
    // What is compared holds the gateway's own shapes: its bare-number OrderAmount, its Russian Messages.
    expect(live.check).toContain(oddShapes.orderAmount);
    expect(live.pay).toContain(oddShapes.payMessage);
    expect(live.status).toContain(oddShapes.statusMessage);
    const env = isolatedEnv(codes);
    const check = await runCli(['--replay', cassettes, ...checkArgs], { env });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toBe(live.check);
    const pay = await runCli(['--replay', cassettes, ...payArgs], { env });
    expect(pay.code, pay.stderr).toBe(0);
    const paid = transactionIdOf(pay.stdout);
    expect(normalised(pay.stdout, paid)).toBe(live.pay);
    // A fresh TransactionID: its Status is the recorded payment's, the answer echoing the new id.
    const status = await runCli(['--replay', cassettes, 'status', paid], { env });
    expect(status.code, status.stderr).toBe(0);
    expect(normalised(status.stdout, paid)).toBe(live.status);
  });

  it('refuses a request it has no recording of, with HTTP 404 naming what was asked', async () => {
    const result = await runCli(['--replay', cassettes, '-v', 'check', '--service', '999', '--account', account], {
      env: isolatedEnv(codes),
    });
    // Nothing to answer it with: exit 2 at once, the refusal under --verbose.
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('← HTTP 404');
    expect(result.stderr).toContain(`No recording of AccountCheck with Service=999, Account=${account}`);
  });

  it('says what had no recording without --verbose, in the message', async () => {
    const args = ['--replay', cassettes, 'check', '--service', '999', '--account', account];
    const result = await runCli(args, { env: isolatedEnv(codes) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `agentpay: the replay has no recording of AccountCheck (Service=999, Account=${account}, Currency=KZT): nothing to answer it with\n`,
    );
  });

  it('an unrecorded Payment was never sent: exit 2 at once, closed in the replay ledger as not sent', async () => {
    // A static payment: no AccountCheck first, the Payment itself is what was never recorded.
    const args = ['pay', '--service', service, '--account', account, '--amount', '10.00'];
    const env = isolatedEnv(codes);
    const result = await runCli(['--replay', cassettes, ...args], { env });
    expect(result.stderr).toContain(`the replay has no recording of Payment (Service=${service}, Account=${account}`);
    expect(result.stderr).toContain('nothing was sent, nothing paid');
    expect(result.code).toBe(2);
    const history = jsonLines((await runCli(['--replay', cassettes, 'history', '--json'], { env })).stdout);
    expect(history.map((line) => line.state)).toEqual(['failed']);
  });

  it('--replay-fallback: the sandbox answers what was not recorded, the recordings the rest', async () => {
    const env = isolatedEnv(codes);
    const sandbox = await runCli(
      ['--replay', cassettes, '--replay-fallback', '--json', 'check', '--service', '101', '--account', '7011234567'],
      { env },
    );
    expect(sandbox.code, sandbox.stderr).toBe(0);
    expect(jsonLines(sandbox.stdout)[0]).toMatchObject({ vouchers: expect.arrayContaining([expect.anything()]) });
    const recorded = await runCli(['--replay', cassettes, '--replay-fallback', ...checkArgs], { env });
    expect(recorded.stdout).toBe(live.check);
  });

  it('--replay-fallback alone is exit 2', async () => {
    const result = await runCli(['--replay-fallback', ...checkArgs], { env: isolatedEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--replay-fallback needs --replay <dir>');
  });

  it('runs a scenario against a replay', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'agentpay-replay-')), 'odd.yaml');
    writeFileSync(
      file,
      [
        'name: odd gateway',
        'cases:',
        '  - name: its voucher is paid and final',
        '    steps:',
        `      - check: { service: "${service}", account: "${account}" }`,
        '        expect:',
        `          vouchers[0].invoiceId: "${invoiceId}"`,
        `          vouchers[0].orderAmount: "${oddShapes.orderAmount}"`,
        `      - pay: { service: "${service}", account: "${account}", invoice-id: "${invoiceId}" }`,
        `        expect: { state: success, message: "${oddShapes.payMessage}" }`,
        '      - status:',
        `        expect: { state: success, message: "${oddShapes.statusMessage}", requestId: { same-as: pay } }`,
        '',
      ].join('\n'),
    );
    const result = await runCli(['--replay', cassettes, 'scenario', file], { env: isolatedEnv(codes) });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('its voucher is paid and final');
  });
});

describe('agentpay sandbox --replay', () => {
  it('serves the recorded bytes and Content-Type, the TransactionID made the new one', async () => {
    const child = spawn(process.execPath, [binPath, 'sandbox', '--replay', cassettes, '--port', '0', '--json'], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
        });
        child.on('exit', () => reject(new Error(`exited before its first line: ${stdout}`)));
      });
      const info = JSON.parse(firstLine) as { baseUrl: string; replay: { recordings: number; fallback: boolean } };
      expect(info.replay).toMatchObject({ recordings: 4, fallback: false });
      const form = new URLSearchParams({
        RequestType: 'AccountCheck',
        Service: service,
        Account: account,
        Currency: 'KZT',
      });
      form.set('TransactionID', '1795000000000000777');
      const response = await fetch(`${info.baseUrl}/home/index`, { method: 'POST', body: form });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=windows-1251');
      const bytes = Buffer.from(await response.arrayBuffer());
      const recorded = JSON.parse(readFileSync(join(cassettes, `0001-AccountCheck-${service}.json`), 'utf8'));
      const recordedId = recorded.request.TransactionID as string;
      const expected = Buffer.from(recorded.answer.body, 'base64')
        .toString('latin1')
        .replace(recordedId, '1795000000000000777');
      expect(bytes.toString('latin1')).toBe(expected);
      expect(bytes.toString('latin1')).toContain('"TransactinID":1795000000000000777');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
