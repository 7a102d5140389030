import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { intent, linesOf, outcome } from '../helpers/journal-lines.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { freshDatabase, startPostgres } from '../helpers/postgres.js';

/**
 * `reconcile --registry` against a ledger made by real `pay` runs on the sandbox, plus journal
 * records appended to disagree in each way. Days are UTC days (TZ=UTC), the day of the payments.
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
let journal: string;
let day: string;
const work = mkdtempSync(join(tmpdir(), 'agentpay-registry-e2e-'));

/** TransactionIDs: paid on the sandbox (p), appended as failed (f), one only in the registry (x). */
const id = {
  agree: '7300001',
  otherAmount: '7300002',
  notListed: '7300003',
  open: '7300004',
  failedListed: '7300005',
  failedNotListed: '7300006',
  x: '7300009',
};

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
  journal = join(work, 'journal.jsonl');
  env = { ...env, AGENTPAY_LEDGER: journal, TZ: 'UTC' };
  const pay = async (txnId: string, amount: string, ledger = journal) => {
    const paid = await runCli(
      ['pay', '--service', '201', '--account', `reg-${txnId}`, '--amount', amount, '--txn-id', txnId],
      { env: { ...env, AGENTPAY_LEDGER: ledger } },
    );
    expect(paid.code, paid.stderr).toBe(0);
  };
  await pay(id.agree, '1500.00');
  await pay(id.otherAmount, '250.50');
  await pay(id.notListed, '700');
  // Paid on the sandbox, but with its answer recorded in another journal: this ledger holds only the intent (open).
  await pay(id.open, '300.00', join(work, 'elsewhere.jsonl'));
  const [first] = jsonLines((await runCli(['history', '--json'], { env })).stdout);
  const at = String(first?.recordedAt);
  day = at.slice(0, 10);
  const owner = { gateway: sandbox.baseUrl, agentId: '1001' };
  const failed = (txnId: string) => [
    { ...intent(txnId, at), ...owner, account: `reg-${txnId}`, amount: '100.00' },
    { ...outcome(txnId, 'failed'), ...owner },
  ];
  const open = { ...intent(id.open, at), ...owner, service: '201', account: `reg-${id.open}`, amount: '300.00' };
  appendFileSync(journal, linesOf([...failed(id.failedListed), ...failed(id.failedNotListed), open]));
});
afterAll(async () => {
  await sandbox.close();
});

/** The registry's rows: [id, account, amount]. */
const listed = (): [string, string, string][] => [
  [id.agree, `reg-${id.agree}`, '1500'],
  [id.otherAmount, `reg-${id.otherAmount}`, '205.50'],
  [id.open, `reg-${id.open}`, '300.00'],
  [id.failedListed, `reg-${id.failedListed}`, '100.00'],
  [id.x, 'reg-x', '42.00'],
];

function tsvOf(rows: [string, string, string][], total?: string): string {
  const [year, month, date] = day.split('-');
  // Both date forms of the tsv layout.
  const lines = rows.map(
    ([txnId, account, amount], n) =>
      `${txnId}\t${n % 2 ? `${date}.${month}.${year}` : day}\t10:00:0${n}\t${account}\t${amount}`,
  );
  return `${[...lines, ...(total ? [total] : [])].join('\n')}\n`;
}

function registryFile(name: string, content: string | Buffer): string {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
}

/** Each finding as list, TransactionID, amounts and states: what the three lists should hold before --settle. */
const expectedBeforeSettle = () => [
  ['only-in-registry', id.x, '42.00', '', 'paid', ''],
  ['only-in-ledger', id.notListed, '', '700', '', 'success'],
  ['different', id.otherAmount, '205.50', '250.50', 'paid', 'success'],
  ['different', id.failedListed, '100.00', '100.00', 'paid', 'failed'],
  ['different', id.open, '300.00', '300.00', 'paid', 'unknown'],
];

describe('reconcile --registry', () => {
  it('tsv with a Total line: the three lists as CSV (parsed back), the sums on stderr, exit 1', async () => {
    const registry = registryFile('day.tsv', tsvOf(listed(), 'Total: 5 2147.50'));
    const result = await runCli(['reconcile', '--registry', registry, '--format', 'csv'], { env });
    expect(result.code, result.stderr).toBe(1);
    const [header, ...rows] = parse(result.stdout) as string[][];
    expect(result.stdout).toContain('\r\n');
    expect(header).toEqual([
      'List',
      'TransactionID',
      'Date',
      'Account',
      'RegistryAmount',
      'LedgerAmount',
      'RegistryState',
      'LedgerState',
    ]);
    expect(
      rows.map(([list, txnId, , , registryAmount, ledgerAmount, registryState, ledgerState]) => [
        list,
        txnId,
        registryAmount,
        ledgerAmount,
        registryState,
        ledgerState,
      ]),
    ).toEqual(expectedBeforeSettle());
    expect(rows.every((row) => row[2] === day)).toBe(true);
    expect(result.stderr).toContain(`registry ${registry}: 5 rows, 2147.50; ledger days ${day}; 1 agree`);
    expect(result.stderr).toContain('only in the registry: 1 (42.00)');
    expect(result.stderr).toContain('only in the ledger: 1 (700)');
    expect(result.stderr).toContain('different: 3 (registry 605.50, ledger 650.50)');
    expect(result.stderr).toContain('disagree on 5 payments');
  });

  it('the lists as CSV with --delimiter ";" --decimal-comma: the same findings, amounts with a decimal comma', async () => {
    const registry = registryFile('day-sheet.tsv', tsvOf(listed(), 'Total: 5 2147.50'));
    const result = await runCli(
      ['reconcile', '--registry', registry, '--format', 'csv', '--delimiter', ';', '--decimal-comma'],
      { env },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout.split('\r\n')[0]).toBe(
      'List;TransactionID;Date;Account;RegistryAmount;LedgerAmount;RegistryState;LedgerState',
    );
    const [, ...rows] = parse(result.stdout, { delimiter: ';' }) as string[][];
    const point = (amount: string | undefined) => amount?.replace(',', '.');
    expect(
      rows.map(([list, txnId, , , registryAmount, ledgerAmount, registryState, ledgerState]) => [
        list,
        txnId,
        point(registryAmount),
        point(ledgerAmount),
        registryState,
        ledgerState,
      ]),
    ).toEqual(expectedBeforeSettle());
    expect(result.stdout).toContain(';205,50;250,50;');
  });

  it('a mapping file: windows-1251, semicolons, a Russian header and decimal commas give the same lists as JSON lines', async () => {
    const mapping = registryFile(
      'kassa.yaml',
      'delimiter: ";"\nheader: true\nencoding: windows-1251\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: Номер, date: Дата, account: Счёт, amount: Сумма }\n',
    );
    const [year, month, date] = day.split('-');
    const rows = listed().map(
      ([txnId, account, amount]) =>
        `${date}.${month}.${year};${txnId};${account.replace('reg-x', 'Пётр')};${amount.replace('.', ',')}`,
    );
    const registry = registryFile('kassa.csv', windows1251(`Дата;Номер;Счёт;Сумма\r\n${rows.join('\r\n')}\r\n`));
    const result = await runCli(['--json', 'reconcile', '--registry', registry, '--registry-format', mapping], { env });
    expect(result.code, result.stderr).toBe(1);
    const findings = jsonLines(result.stdout);
    expect(
      findings.map((f) => [
        f.list,
        f.transactionId,
        f.registryAmount ?? '',
        f.ledgerAmount ?? '',
        f.registryState ?? '',
        f.ledgerState ?? '',
      ]),
    ).toEqual(expectedBeforeSettle().map((row) => (row[1] === id.x ? [row[0], row[1], '42.00', '', 'paid', ''] : row)));
    expect(findings[0]).toEqual({
      list: 'only-in-registry',
      transactionId: id.x,
      date: day,
      account: 'Пётр',
      registryAmount: '42.00',
      ledgerAmount: null,
      registryState: 'paid',
      ledgerState: null,
    });
  });

  it('the same lists with the ledger in PostgreSQL (the journal imported into it)', async () => {
    const server = await startPostgres();
    try {
      const ledger = await freshDatabase(server);
      const imported = await runCli(['ledger', 'import', journal], { env: { ...env, AGENTPAY_LEDGER: ledger } });
      expect(imported.code, imported.stderr).toBe(0);
      const registry = registryFile('team.tsv', tsvOf(listed()));
      const result = await runCli(['--json', 'reconcile', '--registry', registry], {
        env: { ...env, AGENTPAY_LEDGER: ledger },
      });
      expect(result.code, result.stderr).toBe(1);
      const findings = jsonLines(result.stdout);
      expect(
        findings.map((f) => [
          f.list,
          f.transactionId,
          f.registryAmount ?? '',
          f.ledgerAmount ?? '',
          f.registryState ?? '',
          f.ledgerState ?? '',
        ]),
      ).toEqual(expectedBeforeSettle());
    } finally {
      await server.stop();
    }
  });

  it('a registry that cannot be read is exit 2 naming the line: a Total line that contradicts the rows, a malformed row, a bad mapping', async () => {
    const total = await runCli(
      ['reconcile', '--registry', registryFile('total.tsv', tsvOf(listed(), 'Total: 5 2147.51'))],
      { env },
    );
    expect(total.code).toBe(2);
    expect(total.stderr).toContain(
      "line 6: the Total: line says 5 rows summing 2147.51, but the registry's rows are 5 summing 2147.50; the registry contradicts itself",
    );
    expect(total.stdout).toBe('');
    const malformed = registryFile('bad.tsv', tsvOf(listed()).replace('\t205.50', '\t205.5O'));
    const bad = await runCli(['reconcile', '--registry', malformed], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `registry ${malformed} line 2, column 5 (amount): "205.5O" is not an amount such as 1500.00`,
    );
    const mapping = await runCli(
      ['reconcile', '--registry', malformed, '--registry-format', registryFile('m.yaml', 'delimiter: ";;"\n')],
      { env },
    );
    expect(mapping.code).toBe(2);
    expect(mapping.stderr).toContain('m.yaml: delimiter: one character');
  });

  it('a TransactionID beside its twin with leading zeros, or beyond a signed 64-bit Long: exit 2 naming line and column, nothing compared', async () => {
    for (const [name, txnId, why] of [
      [
        'zeros.tsv',
        `000${id.agree}`,
        `"000${id.agree}" is written with a leading zero: a TransactionID is written without (${id.agree})`,
      ],
      [
        'long.tsv',
        '9223372036854775808',
        '"9223372036854775808" is beyond a signed 64-bit Long (at most 9223372036854775807)',
      ],
    ] as const) {
      const registry = registryFile(name, tsvOf([...listed(), [txnId, 'reg-twin', '1500.00']]));
      const result = await runCli(['reconcile', '--registry', registry], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`registry ${registry} line 6, column 1 (TransactionID): ${why}`);
      expect(result.stdout).toBe('');
    }
  });

  it('--settle asks Status for the open one the registry lists, records the answer, and the lists shrink (a table)', async () => {
    const registry = registryFile('settle.tsv', tsvOf(listed()));
    const result = await runCli(['reconcile', '--registry', registry, '--settle', '--date', day], { env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`settled ${id.open}: success`);
    const table = result.stdout.split('\n').filter((line) => line.startsWith('|'));
    expect(table[0]).toMatch(
      /^\| List +\| TransactionID +\| Date +\| Account +\| Registry amount +\| Ledger amount +\| Registry state +\| Ledger state +\|$/,
    );
    expect(table.slice(1).map((line) => line.split('|')[2]?.trim())).toEqual([
      id.x,
      id.notListed,
      id.otherAmount,
      id.failedListed,
    ]);
    expect(readFileSync(journal, 'utf8')).toMatch(
      new RegExp(`"kind":"outcome","transactionId":"${id.open}".*"source":"reconcile".*"state":"success"`),
    );
  });

  it('a registry that agrees with the ledger: exit 0, nothing on stdout', async () => {
    const agreeing: [string, string, string][] = [
      [id.agree, `reg-${id.agree}`, '1500.00'],
      [id.otherAmount, `reg-${id.otherAmount}`, '250.5'],
      [id.notListed, `reg-${id.notListed}`, '700.00'],
      [id.open, `reg-${id.open}`, '300'],
    ];
    const result = await runCli(
      ['reconcile', '--registry', registryFile('agree.tsv', tsvOf(agreeing, 'Total: 4 2750.50')), '--date', day],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('4 agree');
  });
});
