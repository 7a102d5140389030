import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrderFile } from '../helpers/order-file.js';
import { rejection } from '../helpers/thrown.js';

/**
 * An order file is read from disk 1 MiB of lines at a time (order-text.ts), twice: rows that
 * straddle the pieces' edges, two-byte characters and a byte order mark must come out exactly as
 * a file read whole gives them, each with its line; a key given twice in different pieces is
 * still found (the ledger's table of the file holds every row).
 */
const folder = mkdtempSync(join(tmpdir(), 'agentpay-pieces-'));
const rows = 40_000;
// ~100 bytes a row with the Cyrillic account: ~4 MiB, four pieces and more.
const accountOf = (row: number) => `счёт-${row}-${'ж'.repeat(row % 37)}`;
const keyOf = (row: number) => `order-${row}-${'k'.repeat(row % 23)}`;

function csvFile(name: string, lines: string[]): string {
  const path = join(folder, name);
  writeFileSync(path, `\uFEFFkey,service,account,amount\n${lines.join('\n')}\n`);
  return path;
}

const csvLine = (row: number) => `${keyOf(row)},202,${accountOf(row)},${row % 1000}.50`;

describe('an order file larger than one piece', () => {
  it('gives every row exactly, with its line, across the pieces (CSV and JSON lines)', async () => {
    const lines = Array.from({ length: rows }, (_, row) => csvLine(row));
    const csv = await readOrderFile(csvFile('orders.csv', lines), undefined, () => process.stdin);
    const json = join(folder, 'orders.jsonl');
    writeFileSync(
      json,
      Array.from({ length: rows }, (_, row) =>
        JSON.stringify({ key: keyOf(row), service: '202', account: accountOf(row), amount: `${row % 1000}.50` }),
      ).join('\n'),
    );
    const jsonl = await readOrderFile(json, undefined, () => process.stdin);
    for (const [read, firstLine] of [
      [csv, 2],
      [jsonl, 1],
    ] as const) {
      const got: string[] = [];
      const expected: string[] = [];
      for (const order of read.rows) got.push([order.line, order.key, order.account, order.amount].join('|'));
      for (let row = 0; row < rows; row++) {
        const [key, account] = [keyOf(row), accountOf(row)];
        expected.push([row + firstLine, key, account, `${row % 1000}.50`].join('|'));
      }
      expect(got).toEqual(expected);
    }
  });

  it('finds a key given twice pieces apart, naming both lines', async () => {
    const lines = Array.from({ length: rows }, (_, row) => csvLine(row));
    lines[rows - 1] = `${keyOf(7)},202,${accountOf(rows - 1)},1.00`;
    const error = await rejection(() => readOrderFile(csvFile('twice.csv', lines), undefined, () => process.stdin));
    expect(error.message).toContain(`line ${rows + 1}, key:`);
    expect(error.message).toContain('line 9');
  });
});
