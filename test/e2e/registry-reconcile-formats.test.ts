import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { windows1251 } from '../helpers/legacy-charsets.js';
import { freshDatabase, startPostgres } from '../helpers/postgres.js';
import { expectedBeforeSettle, id, listed, registryLedger } from '../helpers/registry-ledger.js';

// `reconcile --registry` against a ledger made by real `pay` runs on the sandbox
// (test/helpers/registry-ledger.ts): the three lists from each registry layout, in each output
// format, and with the ledger in PostgreSQL.
const fixture = registryLedger();

describe('reconcile --registry', () => {
  it('tsv with a Total line: the three lists as CSV (parsed back), the sums on stderr, exit 1', async () => {
    const registry = fixture.registryFile('day.tsv', fixture.tsvOf(listed(), 'Total: 5 2147.50'));
    const result = await runCli(['reconcile', '--registry', registry, '--format', 'csv'], { env: fixture.env });
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
    expect(rows.every((row) => row[2] === fixture.day)).toBe(true);
    expect(result.stderr).toContain(`registry ${registry}: 5 rows, 2147.50; ledger days ${fixture.day}; 1 agree`);
    expect(result.stderr).toContain('only in the registry: 1 (42.00)');
    expect(result.stderr).toContain('only in the ledger: 1 (700)');
    expect(result.stderr).toContain('different: 3 (registry 605.50, ledger 650.50)');
    expect(result.stderr).toContain('disagree on 5 payments');
  });

  it('the lists as a table fit COLUMNS=60 (the states left out, named on stderr); without COLUMNS every column', async () => {
    const registry = fixture.registryFile('narrow.tsv', fixture.tsvOf(listed(), 'Total: 5 2147.50'));
    const narrow = await runCli(['reconcile', '--registry', registry], { env: { ...fixture.env, COLUMNS: '60' } });
    expect(narrow.code, narrow.stderr).toBe(1);
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(60);
    for (const [, txnId] of expectedBeforeSettle()) expect(narrow.stdout).toContain(`| ${txnId} `);
    expect(narrow.stderr).toContain('not shown for want of width: ');
    const whole = await runCli(['reconcile', '--registry', registry], { env: fixture.env });
    expect(whole.stdout.split('\n')[1]).toContain('Registry state');
    expect(whole.stderr).not.toContain('for want of width');
  });

  it('the lists as CSV with --delimiter ";" --decimal-comma: the same findings, amounts with a decimal comma', async () => {
    const registry = fixture.registryFile('fixture.day-sheet.tsv', fixture.tsvOf(listed(), 'Total: 5 2147.50'));
    const result = await runCli(
      ['reconcile', '--registry', registry, '--format', 'csv', '--delimiter', ';', '--decimal-comma'],
      { env: fixture.env },
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
    const mapping = fixture.registryFile(
      'kassa.yaml',
      'delimiter: ";"\nheader: true\nencoding: windows-1251\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: Номер, date: Дата, account: Счёт, amount: Сумма }\n',
    );
    const [year, month, date] = fixture.day.split('-');
    const rows = listed().map(
      ([txnId, account, amount]) =>
        `${date}.${month}.${year};${txnId};${account.replace('reg-x', 'Пётр')};${amount.replace('.', ',')}`,
    );
    const registry = fixture.registryFile(
      'kassa.csv',
      windows1251(`Дата;Номер;Счёт;Сумма\r\n${rows.join('\r\n')}\r\n`),
    );
    const result = await runCli(['--json', 'reconcile', '--registry', registry, '--registry-format', mapping], {
      env: fixture.env,
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
    ).toEqual(expectedBeforeSettle().map((row) => (row[1] === id.x ? [row[0], row[1], '42.00', '', 'paid', ''] : row)));
    expect(findings[0]).toEqual({
      list: 'only-in-registry',
      transactionId: id.x,
      date: fixture.day,
      account: 'Пётр',
      registryAmount: '42.00',
      ledgerAmount: null,
      registryState: 'paid',
      ledgerState: null,
    });
  });

  it('the same lists with the ledger in PostgreSQL (the SQLite ledger exported, then imported into it)', async () => {
    const exported = await runCli(['ledger', 'export'], { env: fixture.env });
    expect(exported.code, exported.stderr).toBe(0);
    const journal = fixture.registryFile('exported.jsonl', exported.stdout);
    const server = await startPostgres();
    try {
      const ledger = await freshDatabase(server);
      const imported = await runCli(['ledger', 'import', journal], {
        env: { ...fixture.env, AGENTPAY_LEDGER: ledger },
      });
      expect(imported.code, imported.stderr).toBe(0);
      const registry = fixture.registryFile('team.tsv', fixture.tsvOf(listed()));
      const result = await runCli(['--json', 'reconcile', '--registry', registry], {
        env: { ...fixture.env, AGENTPAY_LEDGER: ledger },
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
});
