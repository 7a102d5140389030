import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../helpers/cli.js';
import { englishLeft } from '../helpers/english-words.js';
import { id, listed, registryLedger } from '../helpers/registry-ledger.js';

// `reconcile --registry --date D` never compares a row dated another day (issue 27 item 4),
// against a ledger made by real `pay` runs on the sandbox (test/helpers/registry-ledger.ts),
// all of whose payments are of one (UTC) day.
const fixture = registryLedger();

/** The day before the ledger's, as `YYYY-MM-DD`. */
const dayBefore = () => new Date(Date.parse(`${fixture.day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dotted = (day: string) => day.split('-').reverse().join('.');

/** A tsv registry of [id, account, amount, date] rows. */
const tsvOf = (rows: [string, string, string, string][]) =>
  rows.map(([txnId, account, amount, date], n) => `${txnId}\t${date}\t10:00:0${n}\t${account}\t${amount}\n`).join('');

/** The fixture's rows, the one that agrees (and the one only in the registry) dated the day before. */
const mixed = (): [string, string, string, string][] =>
  listed().map(([txnId, account, amount]) => [
    txnId,
    account,
    amount,
    txnId === id.agree || txnId === id.x ? dayBefore() : fixture.day,
  ]);
const finding = (f: Record<string, unknown>) => [f.list, f.transactionId, f.date, f.ledgerAmount, f.ledgerState];

describe('reconcile --registry --date: registry dates are never silently crossed', () => {
  it('rows of the day before are listed apart (the one matching a payment too), the first named on stderr, exit 1', async () => {
    const registry = fixture.registryFile('mixed.tsv', tsvOf(mixed()));
    const result = await runCli(['--json', 'reconcile', '--registry', registry, '--date', fixture.day], {
      env: fixture.env,
    });
    expect(result.code, result.stderr).toBe(1);
    const findings = jsonLines(result.stdout).map(finding);
    expect(findings).toEqual([
      ['only-in-ledger', id.notListed, fixture.day, '700', 'success'],
      ['different', id.otherAmount, fixture.day, '250.50', 'success'],
      ['different', id.failedListed, fixture.day, '100.00', 'failed'],
      ['different', id.open, fixture.day, '300.00', 'unknown'],
      ['dated-another-day', id.agree, dayBefore(), '1500.00', 'success'],
      ['dated-another-day', id.x, dayBefore(), null, null],
    ]);
    const notes = jsonLines(result.stderr);
    expect(notes).toContainEqual({
      warning: `registry ${registry} line 1 is dated ${dayBefore()}, not ${fixture.day} (--date): 2 rows of another day listed apart as "dated another day", none compared`,
    });
    expect(notes).toContainEqual({ note: 'dated another day: 2 (1542.00)' });
    expect(notes).toContainEqual({ note: expect.stringContaining('; 0 agree') });
    // Without --date the registry's own days are compared: the same row agrees.
    const own = await runCli(['--json', 'reconcile', '--registry', registry], { env: fixture.env });
    expect(own.code, own.stderr).toBe(1);
    expect(jsonLines(own.stdout).map((f) => f.transactionId)).not.toContain(id.agree);
    expect(jsonLines(own.stdout).map((f) => f.list)).not.toContain('dated-another-day');
  });

  it('a registry wholly of another day says so in one line, exit 2, nothing listed; either way round', async () => {
    const yesterdays = fixture.registryFile(
      'yesterday.tsv',
      tsvOf(listed().map(([txnId, account, amount]) => [txnId, account, amount, dayBefore()])),
    );
    const result = await runCli(['reconcile', '--registry', yesterdays, '--date', fixture.day], { env: fixture.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `the registry ${yesterdays} is of ${dayBefore()}, not ${fixture.day} (--date): nothing compared`,
    );
    expect(result.stderr).toContain(`give --date ${dayBefore()}`);
    expect(result.stderr.split('\n').filter((line) => line.includes(id.agree))).toEqual([]);
    // The case: today's registry held against --date yesterday, which agreed before.
    const todays = fixture.registryFile(
      'today.tsv',
      tsvOf(listed().map(([txnId, account, amount]) => [txnId, account, amount, fixture.day])),
    );
    const back = await runCli(['reconcile', '--registry', todays, '--date', dotted(dayBefore())], {
      env: fixture.env,
    });
    expect(back.code).toBe(2);
    expect(back.stderr).toContain(`is of ${fixture.day}, not ${dayBefore()} (--date): nothing compared`);
  });

  it('only rows of another day still exit 1, said as such; a DD.MM.YYYY registry by a mapping file, as CSV', async () => {
    const mapping = fixture.registryFile(
      'desk.yaml',
      'delimiter: ";"\nheader: true\ndecimal: comma\ndate: DD.MM.YYYY\ncolumns: { transactionId: Номер, date: Дата, account: Счёт, amount: Сумма }\n',
    );
    // Everything the ledger holds agrees but the open payment, which the provider dates the day before.
    const rows = [
      [id.agree, '1500,00', fixture.day],
      [id.otherAmount, '250,50', fixture.day],
      [id.notListed, '700', fixture.day],
      [id.open, '300,00', dayBefore()],
    ].map(([txnId, amount, day]) => `${txnId};${dotted(day!)};reg-${txnId};${amount}`);
    const registry = fixture.registryFile('desk.csv', `Номер;Дата;Счёт;Сумма\r\n${rows.join('\r\n')}\r\n`);
    const result = await runCli(
      ['reconcile', '--registry', registry, '--registry-format', mapping, '--date', dotted(fixture.day)],
      { env: fixture.env },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/\| dated another day \| 7300004 +\| \d{4}-\d{2}-\d{2} \| reg-7300004 \| 300\.00/);
    expect(result.stderr).toContain(`line 5 is dated ${dayBefore()}, not ${fixture.day} (--date)`);
    expect(result.stderr).toContain(`1 row of the registry is dated another day than ${fixture.day}`);
    expect(result.stderr).not.toContain('disagree');
    const csv = await runCli(
      ['reconcile', '--registry', registry, '--registry-format', mapping, '--date', fixture.day, '--format', 'csv'],
      { env: fixture.env },
    );
    expect(csv.code).toBe(1);
    const [, ...listedRows] = parse(csv.stdout) as string[][];
    expect(listedRows).toEqual([
      ['dated-another-day', id.open, dayBefore(), `reg-${id.open}`, '300.00', '300.00', 'paid', 'unknown'],
    ]);
  });

  it('--lang ru: the table, the summary, the line naming the first row of another day and the verdict in Russian', async () => {
    const registry = fixture.registryFile('mixed-ru.tsv', tsvOf(mixed()));
    const result = await runCli(['--lang', 'ru', 'reconcile', '--registry', registry, '--date', 'today'], {
      env: fixture.env,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /\| за другой день +\| 7300001 +\| [\d-]+ +\| reg-7300001 \| 1500 +\| 1500,00 +\| оплачен/,
    );
    expect(result.stdout).toContain('Сумма в реестре');
    expect(result.stderr).toContain(`строка 1: дата ${dayBefore()}, а не ${fixture.day} (--date); 2 строки`);
    expect(result.stderr).toContain('реестр и журнал расходятся в 4 платежах; 2 строки реестра датированы другим днём');
    expect(result.stderr).toContain('за другой день: 2 (1542,00)');
    // The registry's path and its accounts (reg-…) are names, shown as they are.
    const screen = (...texts: string[]) => texts.join('\n').replaceAll(registry, '<registry>');
    expect(englishLeft(screen(result.stdout, result.stderr), ['reg'])).toEqual([]);
    const wholly = await runCli(
      [
        '--lang',
        'ru',
        'reconcile',
        '--registry',
        registry,
        '--date',
        dotted(fixture.day).replace(/\d{4}$/, (year) => String(Number(year) - 1)),
      ],
      { env: fixture.env },
    );
    expect(wholly.code).toBe(2);
    expect(wholly.stderr).toContain('ничего не сверялось');
    expect(englishLeft(screen(wholly.stderr))).toEqual([]);
  });

  it('--lang ru: a registry that cannot be read, a bad mapping file and options that do not go together, in Russian', async () => {
    const ru = (args: string[]) => runCli(['--lang', 'ru', 'reconcile', ...args], { env: fixture.env });
    const malformed = fixture.registryFile('bad-ru.tsv', tsvOf(mixed()).replace('\t205.50', '\t205.5O'));
    const mapping = fixture.registryFile('bad-ru.yaml', 'delimiter: ";;"\nheader: false\n');
    const results = [
      [await ru(['--registry', malformed]), 'строка 2, столбец 5 (сумма): "205.5O" — не сумма вида 1500.00'],
      [await ru(['--registry', malformed, '--registry-format', mapping]), 'delimiter: один символ, например'],
      [await ru(['--registry', malformed, '--since', '1d']), '--since не сочетается с --registry'],
      [await ru(['--date', 'today']), '--date используется только вместе с --registry'],
    ] as const;
    for (const [result, expected] of results) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(expected);
      const screen = result.stderr.replaceAll(malformed, '<registry>').replaceAll(mapping, '<mapping>');
      // A mapping file's keys and the word tab are the file's own.
      expect(englishLeft(screen, ['delimiter', 'tab'])).toEqual([]);
    }
  });
});
