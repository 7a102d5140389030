import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ledgerRecords } from '../helpers/ledger-file.js';
import { id, listed, registryLedger } from '../helpers/registry-ledger.js';

// `reconcile --registry` against a ledger made by real `pay` runs on the sandbox
// (test/helpers/registry-ledger.ts): registries refused (exit 2), --settle shrinking the lists,
// and a registry that agrees (exit 0), which holds only after --settle has run.
const fixture = registryLedger();

describe('reconcile --registry', () => {
  it('a registry that cannot be read is exit 2 naming the line: a Total line that contradicts the rows, a malformed row, a bad mapping', async () => {
    const total = await runCli(
      ['reconcile', '--registry', fixture.registryFile('total.tsv', fixture.tsvOf(listed(), 'Total: 5 2147.51'))],
      { env: fixture.env },
    );
    expect(total.code).toBe(2);
    expect(total.stderr).toContain(
      "line 6: the Total: line says 5 rows summing 2147.51, but the registry's rows are 5 summing 2147.50; the registry contradicts itself",
    );
    expect(total.stdout).toBe('');
    const malformed = fixture.registryFile('bad.tsv', fixture.tsvOf(listed()).replace('\t205.50', '\t205.5O'));
    const bad = await runCli(['reconcile', '--registry', malformed], { env: fixture.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `registry ${malformed} line 2, column 5 (amount): "205.5O" is not an amount such as 1500.00`,
    );
    const mapping = await runCli(
      ['reconcile', '--registry', malformed, '--registry-format', fixture.registryFile('m.yaml', 'delimiter: ";;"\n')],
      { env: fixture.env },
    );
    expect(mapping.code).toBe(2);
    expect(mapping.stderr).toContain('m.yaml: delimiter: one character');
  });

  it('leaves nothing in the temporary directory, whether it compares, refuses a registry, or is refused a day', async () => {
    // The comparison's scratch database goes there (it holds accounts): gone when the run ends.
    const scratch = mkdtempSync(join(tmpdir(), 'agentpay-scratch-'));
    const env = { ...fixture.env, TMPDIR: scratch };
    const twice = fixture.tsvOf([...listed(), [id.agree, 'reg-again', '1.00']]);
    for (const [args, code] of [
      [['--json', 'reconcile', '--registry', fixture.registryFile('scratch.tsv', fixture.tsvOf(listed()))], 1],
      [['reconcile', '--registry', fixture.registryFile('twice.tsv', twice)], 2],
      [['reconcile', '--registry', fixture.registryFile('day.tsv', fixture.tsvOf(listed())), '--date', 'x'], 2],
    ] as const) {
      const result = await runCli([...args], { env });
      expect(result.code, result.stderr).toBe(code);
      expect(readdirSync(scratch).filter((name) => name.startsWith('agentpay'))).toEqual([]);
    }
  });

  it('a registry with bytes that are not UTF-8 is exit 2 naming the line and character, not read with U+FFFD', async () => {
    // The account of the third row holds a Latin-1 "ä" (0xE4) where "§" is; a Cyrillic account of
    // 40 KB on the row before it (read again in pieces of 16 KB), and the first row's quotes in the
    // CSV (read by csv-parse), change nothing.
    const rows = listed().map(([txnId, account, amount], n): [string, string, string] => [
      txnId,
      n === 1 ? 'Счёт'.repeat(5_000) : n === 2 ? `${account}§` : account,
      amount,
    ]);
    const tsv = fixture.tsvOf(rows);
    const latinA = Buffer.from([0xe4]);
    const csv = `TransactionID,Date,Time,Account,Amount\n${tsv.replaceAll('\t', ',').replace(/,(reg-[^,]*),/, ',"$1",')}`;
    for (const [name, text, line] of [
      ['latin1.tsv', tsv, 3],
      ['latin1.csv', csv, 4],
    ] as const) {
      const shown = text.split('\n')[line - 1]!;
      const [before, after] = text.split('§');
      const registry = fixture.registryFile(name, Buffer.concat([Buffer.from(before!), latinA, Buffer.from(after!)]));
      const result = await runCli(['reconcile', '--registry', registry], { env: fixture.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        `registry ${registry} line ${line}: byte 0xE4 at character ${shown.indexOf('§') + 1} is not UTF-8; nothing was compared`,
      );
      expect(result.stdout).toBe('');
    }
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
      const registry = fixture.registryFile(name, fixture.tsvOf([...listed(), [txnId, 'reg-twin', '1500.00']]));
      const result = await runCli(['reconcile', '--registry', registry], { env: fixture.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`registry ${registry} line 6, column 1 (TransactionID): ${why}`);
      expect(result.stdout).toBe('');
    }
  });

  it('--settle asks Status for the open one the registry lists, records the answer, and the lists shrink (a table)', async () => {
    const registry = fixture.registryFile('settle.tsv', fixture.tsvOf(listed()));
    const result = await runCli(['reconcile', '--registry', registry, '--settle', '--date', fixture.day], {
      env: fixture.env,
    });
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
    const outcomes = (await ledgerRecords(fixture.ledger)).filter(
      (record) => record.kind === 'outcome' && record.transactionId === id.open,
    );
    expect(outcomes).toEqual([
      expect.objectContaining({ source: 'reconcile', view: expect.objectContaining({ state: 'success' }) }),
    ]);
  });

  it('a registry that agrees with the ledger: exit 0, nothing on stdout', async () => {
    const agreeing: [string, string, string][] = [
      [id.agree, `reg-${id.agree}`, '1500.00'],
      [id.otherAmount, `reg-${id.otherAmount}`, '250.5'],
      [id.notListed, `reg-${id.notListed}`, '700.00'],
      [id.open, `reg-${id.open}`, '300'],
    ];
    const result = await runCli(
      [
        'reconcile',
        '--registry',
        fixture.registryFile('agree.tsv', fixture.tsvOf(agreeing, 'Total: 4 2750.50')),
        '--date',
        fixture.day,
      ],
      { env: fixture.env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('4 agree');
  });
});
