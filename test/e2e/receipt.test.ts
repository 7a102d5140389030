import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { ansiEscape, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fake-gateway.js';
import { envFor, paymentsReceived } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, type PostgresServer, startPostgres } from '../helpers/postgres.js';
import { formsOfType, type SpecServer, startSpecServer } from '../helpers/spec-server.js';

// The sandbox reached by URL, and a purpose-built gateway whose voucher has a long Cyrillic
// name (the sandbox sells none), both on loopback; receipts read back from the file ledger. Payments that
// exist only for `receipt` to read are paid in-process (in-process-run.ts); `pay --receipt` runs through the bin.
let sandbox: RunningSandbox;
let cyrillic: SpecServer;
const voucherName = 'Пополнение игрового счёта: 1200 монет и бонусный набор «Всадник дракона»';

beforeAll(async () => {
  [sandbox, cyrillic] = await Promise.all([
    startSandbox({ recordRequests: true }),
    startSpecServer({ vouchers: [{ invoiceId: '9001', orderAmount: '1500.00', name: voucherName }] }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), cyrillic?.close()]);
});

const receiptPath = () => join(mkdtempSync(join(tmpdir(), 'agentpay-receipt-')), 'receipt.txt');
const transactionIdOf = (receipt: string) => /TransactionID\s+(\d+)/.exec(receipt)?.[1] ?? '';
/** Columns a line takes: no wide characters here, so one per code point. */
const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));

/** A terminal's env pointed at the purpose-built gateway: its own HOME, ledger and operator. */
function cyrillicEnv(home: Record<string, string>): Record<string, string> {
  return { ...home, AGENTPAY_BASE_URL: cyrillic.baseUrl, AGENTPAY_AGENT_ID: '77', AGENTPAY_PASSWORD: 'spec-password' };
}

describe('agentpay receipt (file ledger)', () => {
  it('pay --receipt writes the receipt that `agentpay receipt` prints again, plain; --json adds voucher, operator and at', async () => {
    const env = envFor(sandbox, { AGENTPAY_OPERATOR: 'Ольга', AGENTPAY_SETTLE_DELAY: '20' });
    const file = receiptPath();
    const paid = await runCli(
      ['pay', '--service', '101', '--account', '7011234567', '--invoice-id', '5002', '--receipt', file],
      { env },
    );
    expect(paid.code).toBe(0);
    const written = readFileSync(file, 'utf8');
    const id = transactionIdOf(paid.stdout);
    expect(id).toMatch(/^\d+$/);
    expect(written).toMatch(new RegExp(`TransactionID\\s+${id}\\n`));
    expect(written).toMatch(/State\s+success \(ResponseStatus 10\)\n/);
    expect(written).toMatch(/Amount\s+2497\.00 KZT\n/);
    expect(written).toMatch(/Voucher\s+550 GameCoins\n/);
    expect(written).toMatch(/Operator\s+Ольга\n/);
    expect(written).not.toMatch(ansiEscape);

    // In colour on a terminal; the same text once the colour is taken off.
    const { NO_COLOR: _plain, ...colourEnv } = env;
    const shown = await runCli(['receipt', id], { env: { ...colourEnv, FORCE_COLOR: '1' } });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(ansiEscape);
    expect(stripVTControlCharacters(shown.stdout)).toBe(written);

    const json = await runCli(['--json', 'receipt', id], { env });
    expect(json.code).toBe(0);
    const [line, ...more] = jsonLines(json.stdout);
    expect(more).toHaveLength(0);
    expect(line).toMatchObject({
      transactionId: id,
      state: 'success',
      amount: '2497.00',
      currency: 'KZT',
      voucher: '550 GameCoins',
      operator: 'Ольга',
    });
    expect(Date.parse(String(line?.at))).not.toBeNaN();
    // Reprinting sends nothing.
    expect(paymentsReceived(sandbox).filter((form) => form.get('TransactionID') === id)).toHaveLength(1);
  });

  it('--width 32 and --width 48 hold their width with a long Cyrillic voucher name, wrapping it', async () => {
    const env = cyrillicEnv(isolatedEnv({ AGENTPAY_OPERATOR: 'Александра Константиновна' }));
    const paid = await runInProcess(['pay', '--service', '301', '--account', 'игрок-42', '--invoice-id', '9001'], env);
    expect(paid.code).toBe(0);
    const id = transactionIdOf(paid.stdout);
    for (const width of ['32', '48']) {
      const printed = await runCli(['receipt', id, '--width', width], { env });
      expect(printed.code).toBe(0);
      expect(widest(printed.stdout.trimEnd()), `--width ${width}`).toBeLessThanOrEqual(Number(width));
      // Every word of the name is there, in order, across the wrapped lines.
      expect(printed.stdout.replace(/\s+/g, ' ')).toContain(voucherName);
      expect(printed.stdout).toContain('Александра Константиновна');
      expect(printed.stdout).toContain(id);
    }
    const unwrapped = await runCli(['receipt', id], { env });
    expect(unwrapped.stdout).toMatch(new RegExp(`Voucher\\s+${voucherName}\\n`));
    const tooNarrow = await runCli(['receipt', id, '--width', '12'], { env });
    expect(tooNarrow.code).toBe(2);
    expect(tooNarrow.stderr).toContain('--width takes a whole number of columns from 20 to 1000');
  });

  it('an id not in the ledger: exit 2, saying so', async () => {
    const env = envFor(sandbox);
    const result = await runCli(['receipt', '4242424242'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('transaction 4242424242 is not in the ledger');
  });

  it('an id two gateways hold: exit 2 naming both unless the settings name one', async () => {
    const home = isolatedEnv({ AGENTPAY_SETTLE_DELAY: '20' });
    const id = '8800000000000001';
    const viaSandbox = await runInProcess(
      ['pay', '--service', '201', '--account', 'player-42', '--amount', '150.00', '--txn-id', id],
      {
        ...home,
        AGENTPAY_BASE_URL: sandbox.baseUrl,
        AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
        AGENTPAY_PASSWORD: sandboxCredentials.password,
      },
    );
    const viaOther = await runInProcess(
      ['pay', '--service', '301', '--account', 'игрок-42', '--invoice-id', '9001', '--txn-id', id],
      cyrillicEnv(home),
    );
    expect([viaSandbox.code, viaOther.code]).toEqual([0, 0]);

    const ambiguous = await runCli(['receipt', id], { env: home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toContain(
      `transaction ${id} is in the ledger for 2 gateways (${sandbox.baseUrl} agent ${sandboxCredentials.agentId}, ${cyrillic.baseUrl} agent 77)`,
    );
    expect(ambiguous.stderr).toContain('--base-url <url> --agent-id <id>');

    const chosen = await runCli(['receipt', id], { env: cyrillicEnv(home) });
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toMatch(/Amount\s+1500\.00 KZT\n/);
    const elsewhere = await runCli(['receipt', id], {
      env: { ...home, AGENTPAY_BASE_URL: 'http://127.0.0.1:9', AGENTPAY_AGENT_ID: sandboxCredentials.agentId },
    });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(
      `transaction ${id} is not in the ledger for http://127.0.0.1:9 agent ${sandboxCredentials.agentId}; it is for`,
    );
    // The embedded sandbox keeps a ledger of its own (docs/sandbox.md): the live ledger is not its.
    const played = await runCli(['--sandbox', 'receipt', id], { env: home });
    expect([played.code, played.stderr]).toEqual([2, expect.stringContaining('sandbox-ledger.sqlite')]);
  });

  it('pay --receipt: a refused payment gets a receipt that says failed, exit 1 unchanged', async () => {
    const env = envFor(sandbox);
    const file = receiptPath();
    // The sandbox refuses a static amount that is not the service's fixed denomination.
    const refused = await runCli(
      ['pay', '--service', '202', '--account', 'player-42', '--amount', '1499.99', '--receipt', file],
      { env },
    );
    expect(refused.code).toBe(1);
    expect(readFileSync(file, 'utf8')).toMatch(/^✗ Payment failed\n[\s\S]*State\s+failed \(ResponseStatus 23\)/);
  });

  it('pay --receipt: an outcome lost (unknown) gets a receipt that says unknown, exit 3 unchanged', async () => {
    const held = await startSpecServer({ hold: ['Payment', 'Status'] });
    try {
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: held.baseUrl,
        AGENTPAY_AGENT_ID: '77',
        AGENTPAY_PASSWORD: 'spec-password',
        AGENTPAY_TIMEOUT: '300',
        AGENTPAY_SETTLE_ATTEMPTS: '0',
      });
      const file = receiptPath();
      const lost = await runCli(
        ['pay', '--service', '201', '--account', 'player-42', '--amount', '10.00', '--receipt', file],
        { env },
      );
      expect(lost.code, lost.stderr).toBe(3);
      expect(formsOfType(held.received, 'Payment')).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).toMatch(/^\? Payment outcome is unknown\n[\s\S]*State\s+unknown/);
    } finally {
      await held.close();
    }
  });

  it('pay --receipt: a Payment proven not sent gets a receipt that says failed (not sent); a refused --txn-id gets none', async () => {
    const env = isolatedEnv({
      AGENTPAY_BASE_URL: await closedPortUrl(),
      AGENTPAY_AGENT_ID: '77',
      AGENTPAY_PASSWORD: 'spec-password',
    });
    const file = receiptPath();
    const refused = await runCli(
      ['pay', '--service', '201', '--account', 'player-42', '--amount', '10.00', '--receipt', file],
      { env },
    );
    expect(refused.code).toBe(4);
    const written = readFileSync(file, 'utf8');
    expect(written).toMatch(/^✗ Payment failed\n[\s\S]*Message\s+not sent: /);
    // The same TransactionID for another purchase is refused before anything is recorded: no receipt, said so.
    const other = receiptPath();
    const reused = await runCli(
      [
        'pay',
        '--service',
        '201',
        '--account',
        'player-43',
        '--amount',
        '10.00',
        '--txn-id',
        transactionIdOf(written),
        '--receipt',
        other,
      ],
      { env },
    );
    expect(reused.code).toBe(2);
    expect(existsSync(other)).toBe(false);
    expect(reused.stderr).toContain(`no receipt written to ${other}`);
  });

  it('pay --receipt to a file that cannot be written: a warning, the payment stands (exit 0)', async () => {
    const env = envFor(sandbox);
    const file = join(receiptPath(), 'missing-directory', 'receipt.txt');
    const paid = await runCli(
      ['pay', '--service', '201', '--account', 'player-42', '--amount', '20.00', '--receipt', file],
      { env },
    );
    expect(paid.code).toBe(0);
    expect(paid.stdout).toContain('Payment succeeded');
    expect(paid.stderr).toContain(`cannot write the receipt to ${file} (ENOENT); the payment stands`);
  });
});

describe('agentpay receipt (PostgreSQL ledger)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 30_000);
  afterAll(async () => {
    await server?.remove();
  });

  it("shows the latest attempt's operator; pay --receipt writes the same text", async () => {
    const ledger = await freshDatabase(server);
    const terminal = (operator: string) =>
      envFor(sandbox, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: operator, AGENTPAY_SETTLE_DELAY: '20' });
    const id = '8800000000000002';
    const pay = ['pay', '--service', '101', '--account', 'player-42', '--invoice-id', '5001', '--txn-id', id];
    expect((await runInProcess(pay, terminal('ann'))).code).toBe(0);
    // The safe retry from another terminal, through the bin: pays nothing twice, and is the latest attempt.
    const file = receiptPath();
    expect((await runCli([...pay, '--receipt', file], { env: terminal('bob') })).code).toBe(0);
    expect(paymentsReceived(sandbox).filter((form) => form.get('TransactionID') === id)).toHaveLength(2);

    const shown = await runCli(['receipt', id], { env: terminal('cid') });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Voucher\s+100 GameCoins\n/);
    expect(shown.stdout).toMatch(/Operator\s+bob\n/);
    expect(shown.stdout).toMatch(/State\s+success/);
    expect(readFileSync(file, 'utf8')).toBe(shown.stdout);

    const json = jsonLines((await runCli(['--json', 'receipt', id], { env: terminal('cid') })).stdout);
    expect(json).toEqual([
      expect.objectContaining({ transactionId: id, voucher: '100 GameCoins', operator: 'bob', amount: '499.00' }),
    ]);
    const missing = await runCli(['receipt', '4242424242'], { env: terminal('cid') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('transaction 4242424242 is not in the ledger');
  });
});
