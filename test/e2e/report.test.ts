import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { freshDatabase, type PostgresServer, startPostgres } from '../helpers/postgres.js';
import { type SpecServer, startSpecServer } from '../helpers/spec-server.js';

// `agentpay report` and `history --format` through the bin: payments made by `pay`, run in-process
// for set-up (in-process-run.ts), on the sandbox (two services, two currencies, two operators, a refused
// one, an account a person typed as a formula) and on a purpose-built gateway whose voucher name is a formula.
let sandbox: RunningSandbox;
let formulaGateway: SpecServer;
let env: Record<string, string>;
const formulaVoucher = '=HYPERLINK("http://example.invalid","prize")';

/** The local day (YYYY-MM-DD) of an instant: the ledger's own times decide the day asked for. */
const localDayOf = (iso: string) => {
  const at = new Date(iso);
  return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
};

const pay = (operator: string, args: string[]) =>
  runInProcess(['pay', ...args], { ...env, AGENTPAY_OPERATOR: operator });

/** `--json history` of the file's ledger, run once: nothing pays after beforeAll. */
let historyOnce: Promise<string> | undefined;
const jsonHistory = () => (historyOnce ??= runCli(['--json', 'history'], { env }).then((result) => result.stdout));

beforeAll(async () => {
  [{ sandbox, env }, formulaGateway] = await Promise.all([
    sandboxWithEnv(),
    startSpecServer({ vouchers: [{ invoiceId: '9001', orderAmount: '1500.00', name: formulaVoucher }] }),
  ]);
  const paid = [
    await pay('ann', ['--service', '201', '--account', '7011234567', '--amount', '150.00']),
    await pay('ann', ['--service', '201', '--account', '7011234567', '--amount', '150.00', '--allow-duplicate']),
    await pay('bob', ['--service', '201', '--account', '=1+1', '--amount', '0.5']),
    await pay('ann', ['--service', '102', '--account', 'player-42', '--invoice-id', '7010', '--currency', 'USD']),
    await pay('bob', ['--service', '102', '--account', 'player-42', '--invoice-id', '7025', '--currency', 'USD']),
  ];
  expect(paid.map((result) => result.code)).toEqual([0, 0, 0, 0, 0]);
  // Always refused by the sandbox: a failed payment, counted apart.
  expect((await pay('bob', ['--service', '201', '--account', '0000000000', '--amount', '100'])).code).toBe(1);
  // The same journal, through the purpose-built gateway: its voucher's name starts with `=`.
  const other = {
    ...env,
    AGENTPAY_BASE_URL: formulaGateway.baseUrl,
    AGENTPAY_AGENT_ID: '77',
    AGENTPAY_PASSWORD: 'spec-password',
    AGENTPAY_OPERATOR: 'ann',
  };
  expect(
    (await runInProcess(['pay', '--service', '101', '--account', 'player-42', '--invoice-id', '9001'], other)).code,
  ).toBe(0);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), formulaGateway?.close()]);
});

/** The table's rows as lists of cells (NO_COLOR: ASCII borders). */
const cells = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

async function paymentDay(): Promise<string> {
  const history = jsonLines(await jsonHistory());
  const days = new Set(history.map((line) => localDayOf(String(line.recordedAt))));
  expect(days.size, 'the test paid within one local day').toBe(1);
  return [...days][0]!;
}

describe('agentpay report (journal file)', () => {
  it('a local day by service and state: counts, exact sums, a total per currency', async () => {
    const day = await paymentDay();
    const result = await runCli(['report', '--date', day], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`payments for ${day} (local day)`);
    expect(cells(result.stdout)).toEqual([
      ['Service', 'State', 'Currency', 'Count', 'Sum'],
      ['101', 'success', 'KZT', '1', '1500.00'],
      ['102', 'success', 'USD', '2', '37.205'],
      ['201', 'success', 'KZT', '3', '300.50'],
      ['201', 'failed', 'KZT', '1', '100'],
      ['Total', '', 'KZT', '5', '1900.50'],
      ['Total', '', 'USD', '2', '37.205'],
    ]);
  });

  it('--format csv parses back with csv-parse to what --format json says; --bom for spreadsheets; --by operator,currency', async () => {
    const day = await paymentDay();
    const args = ['report', '--date', day, '--by', 'operator,currency'];
    const csv = await runCli([...args, '--format', 'csv'], { env });
    expect(csv.code).toBe(0);
    expect(csv.stdout.startsWith('Operator,Currency,Count,Sum\r\n')).toBe(true);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    const json = jsonLines((await runCli([...args, '--format', 'json'], { env })).stdout);
    expect(jsonLines((await runCli(['--json', ...args], { env })).stdout), '--json is --format json').toEqual(json);
    expect(json.map(({ from: _from, until: _until, ...line }) => line)).toEqual([
      { kind: 'group', operator: 'ann', currency: 'KZT', count: 3, sum: '1800.00' },
      { kind: 'group', operator: 'ann', currency: 'USD', count: 1, sum: '10.630' },
      { kind: 'group', operator: 'bob', currency: 'KZT', count: 2, sum: '100.5' },
      { kind: 'group', operator: 'bob', currency: 'USD', count: 1, sum: '26.575' },
      { kind: 'total', currency: 'KZT', count: 5, sum: '1900.50' },
      { kind: 'total', currency: 'USD', count: 2, sum: '37.205' },
    ]);
    expect(rows).toEqual(
      json.map((line) => ({
        Operator: line.kind === 'total' ? 'Total' : line.operator,
        Currency: line.currency,
        Count: String(line.count),
        Sum: line.sum,
      })),
    );
    const withBom = await runCli([...args, '--format', 'csv', '--bom'], { env });
    expect(withBom.stdout).toBe(`\uFEFF${csv.stdout}`);
  });

  it('--since and --until bound the range; by default yesterday, which holds none of today’s payments', async () => {
    const history = jsonLines(await jsonHistory());
    const third = String(history[2]!.recordedAt);
    const before = jsonLines(
      (await runCli(['--json', 'report', '--since', '1d', '--until', third, '--by', 'currency'], { env })).stdout,
    );
    expect(before.filter((line) => line.kind === 'total')).toEqual([
      expect.objectContaining({ currency: 'KZT', count: 2, sum: '300.00', until: new Date(third).toISOString() }),
    ]);

    const day = await paymentDay();
    const yesterday = await runCli(['report'], { env });
    expect(yesterday.code).toBe(0);
    if (day === localDayOf(new Date().toISOString())) {
      expect(yesterday.stdout).toBe('');
      expect(yesterday.stderr).toMatch(/no payments in .* for \d{4}-\d{2}-\d{2} \(local day\)/);
    }
    // An empty range is refused; CSV with nothing to report is its header row alone.
    expect((await runCli(['report', '--since', '1d', '--until', '1d', '--format', 'csv'], { env })).code).toBe(2);
    const empty = await runCli(['report', '--date', '2000-01-01', '--format', 'csv'], { env });
    expect(empty.stdout).toBe('Service,State,Currency,Count,Sum\r\n');
  });

  it('refuses what it cannot do, exit 2, nothing on stdout', async () => {
    for (const args of [
      ['report', '--by', 'colour'],
      ['report', '--bom'],
      ['--json', 'report', '--format', 'csv'],
      ['report', '--date', '2026-02-30'],
      ['report', '--date', '2026-11-22', '--since', '1h'],
      ['report', '--format', 'xml'],
    ]) {
      const result = await runCli(args, { env });
      expect([args.join(' '), result.code, result.stdout]).toEqual([args.join(' '), 2, '']);
    }
  });
});

describe('agentpay history --format', () => {
  it('csv: a header row, ids and amounts as written, Cyrillic in UTF-8, formulas from a person or a gateway written as text', async () => {
    const result = await runCli(['history', '--format', 'csv'], { env });
    expect(result.code).toBe(0);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    const json = jsonLines(await jsonHistory());
    expect(rows.map((row) => [row.TransactionID, row.State, row.Amount, row.Currency, row.Operator])).toEqual(
      json.map((line) => [line.transactionId, line.state, line.amount, line.currency, line.operator]),
    );
    expect(rows.find((row) => row.Amount === '0.5')?.Account).toBe("'=1+1");
    expect(rows.find((row) => row.InvoiceID === '9001')?.Voucher).toBe(`'${formulaVoucher}`);
    expect(rows.find((row) => row.State === 'failed')?.Message).toMatch(/^Ошибка/);
    expect(result.stdout).not.toMatch(/(^|,)=/m);
  });

  it('--bom starts the CSV with a byte order mark; --format json is --json; --bom alone is refused', async () => {
    const plain = await runCli(['history', '--format', 'csv'], { env });
    expect((await runCli(['history', '--format', 'csv', '--bom'], { env })).stdout).toBe(`\uFEFF${plain.stdout}`);
    expect((await runCli(['history', '--format', 'json'], { env })).stdout).toBe(await jsonHistory());
    const table = await runCli(['history', '--format', 'table'], { env });
    expect(table.stdout).toBe((await runCli(['history'], { env })).stdout);
    const refused = await runCli(['history', '--bom'], { env });
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--bom goes with --format csv')]);
  });

  it('csv of an empty ledger is its header row alone', async () => {
    const result = await runCli(['history', '--format', 'csv'], { env: isolatedEnv() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'When,Gateway,AgentID,Operator,Host,TransactionID,State,Status,Service,Account,Amount,Currency,InvoiceID,Voucher,RequestID,Message,RequestedBy,ApprovedBy\r\n',
    );
  });
});

describe('agentpay report (PostgreSQL ledger)', () => {
  let server: PostgresServer;
  let shared: RunningSandbox;
  beforeAll(async () => {
    [server, shared] = await Promise.all([startPostgres(), startSandbox()]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([server?.remove(), shared?.close()]);
  });

  it("the desk's payments from several terminals, by operator and state; CSV parsed back", async () => {
    const ledger = await freshDatabase(server);
    const terminal = (operator: string) =>
      envFor(shared, { AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: operator, AGENTPAY_SETTLE_DELAY: '20' });
    // Set-up in-process, one terminal after another (team-ledger-sharing.test.ts pays from several at once).
    const results = [
      await runInProcess(['pay', '--service', '201', '--account', '7011234567', '--amount', '150.00'], terminal('ann')),
      await runInProcess(['pay', '--service', '201', '--account', 'player-42', '--amount', '0.75'], terminal('bob')),
      await runInProcess(
        ['pay', '--service', '102', '--account', 'player-42', '--invoice-id', '7050', '--currency', 'USD'],
        terminal('bob'),
      ),
      await runInProcess(['pay', '--service', '201', '--account', '0000000000', '--amount', '5'], terminal('ann')),
    ];
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 1]);
    const result = await runCli(['report', '--since', '1d', '--by', 'operator', '--by', 'state', '--format', 'csv'], {
      env: terminal('cid'),
    });
    expect(result.code).toBe(0);
    expect(parse(result.stdout)).toEqual([
      ['Operator', 'State', 'Currency', 'Count', 'Sum'],
      ['ann', 'success', 'KZT', '1', '150.00'],
      ['ann', 'failed', 'KZT', '1', '5'],
      ['bob', 'success', 'KZT', '1', '0.75'],
      ['bob', 'success', 'USD', '1', '53.150'],
      ['Total', '', 'KZT', '3', '155.75'],
      ['Total', '', 'USD', '1', '53.150'],
    ]);
  });
});
