import { describe, expect, it } from 'vitest';
import { BulkRows } from '../../src/commands/pay/bulk/bulk-rows.js';
import type { OrderRow } from '../../src/commands/pay/bulk/order-row.js';
import { OrderStore } from '../../src/commands/pay/bulk/order-store.js';
import { LedgerRows } from '../../src/commands/pay/bulk/resume-ledger.js';
import { resultRowOf } from '../../src/commands/pay/bulk/row-work.js';
import { PackedIds, SmallIndexes } from '../../src/packed/small-indexes.js';
import { emptyCodeTable } from '../../src/protocol/codes.js';

const order = (i: number): OrderRow => ({
  line: i + 2,
  key: `order-${i}`,
  service: '202',
  account: String(7_000_000_000 + i),
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount: '1500.00',
});

describe('per-row indexes in the fewest bytes', () => {
  it('keeps every index through widening to two and four bytes, and none as none', () => {
    const indexes = new SmallIndexes(5);
    indexes.set(0, 3);
    indexes.set(1, 254);
    expect([indexes.get(0), indexes.get(1), indexes.get(2)]).toEqual([3, 254, undefined]);
    indexes.set(2, 255);
    indexes.set(3, 65_534);
    expect([indexes.get(0), indexes.get(1), indexes.get(2), indexes.get(3)]).toEqual([3, 254, 255, 65_534]);
    indexes.set(4, 70_000);
    indexes.set(1, undefined);
    expect([indexes.get(0), indexes.get(1), indexes.get(2), indexes.get(3), indexes.get(4)]).toEqual([
      3,
      undefined,
      255,
      65_534,
      70_000,
    ]);
  });

  it('gives back 64-bit ids exactly, across many high halves and the ends of the range', () => {
    const ids = [1n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 64n - 1n, 1_795_810_799_084_675_198n];
    for (let i = 0; i < 600; i++) ids.push(1_795_810_799_084_675_198n + BigInt(i) * 2n ** 32n + BigInt(i));
    const packed = new PackedIds(ids.length + 1);
    ids.forEach((id, row) => packed.set(row, id));
    expect(ids.map((_, row) => packed.get(row))).toEqual(ids);
    expect(packed.get(ids.length)).toBe(0n);
  });
});

describe("a bulk run's rows", () => {
  it('hold a TransactionID and a latest word in under 10 bytes a row (14 with a BigUint64 and an Int32)', () => {
    const count = 200_000;
    const orders = new OrderStore();
    for (let i = 0; i < count; i++) orders.push(order(i));
    const held = new LedgerRows(orders, 0);
    const before = process.memoryUsage().arrayBuffers;
    const rows = new BulkRows(orders, undefined, held, emptyCodeTable);
    const firstId = 1_795_810_799_084_675_198n;
    for (let index = 0; index < count; index++) {
      const row = rows.get(index);
      row.transactionId = String(firstId + BigInt(index));
      row.paidAmount = row.amount;
      rows.put(index, row);
      rows.setWord(index, { ...resultRowOf(row), state: 'success', status: '10', message: 'Успех' });
    }
    const perRow = (process.memoryUsage().arrayBuffers - before) / count;
    expect(rows.get(count - 1).transactionId).toBe(String(firstId + BigInt(count - 1)));
    expect(rows.latest(7, resultRowOf(rows.get(7)))).toMatchObject({
      state: 'success',
      status: '10',
      message: 'Успех',
    });
    expect(perRow).toBeLessThan(10);
  });
});

describe("a file's orders, packed", () => {
  it('gives every row back whole across 1 MiB chunks, its line too, and finds it by line', () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => ({
      ...order(i),
      key: i % 1_000 === 0 ? undefined : `order-${i}-${'ё'.repeat(i % 7)}`,
      invoiceId: i % 3 === 0 ? `${900 + i}` : undefined,
      invoicePosition: i % 3 === 1 ? (i % 5) + 1 : undefined,
      amount: i % 3 === 2 ? `${i}.50` : undefined,
    }));
    const orders = new OrderStore();
    for (const row of rows) orders.push(row);
    expect([...orders]).toEqual(rows);
    expect(rows.map((row) => orders.indexOfLine(row.line))).toEqual(rows.map((_, i) => i));
    expect([0, 1, 60_002, 2.5, -1].map((line) => orders.indexOfLine(line))).toEqual([-1, -1, -1, -1, -1]);
    expect(rows.map((_, i) => [orders.accountOf(i), orders.currencyOf(i), orders.keyOf(i)])).toEqual(
      rows.map((row) => [row.account, row.currency, row.key]),
    );
  });

  it('keeps the lines of a file whose rows are not a line each (blank lines, a quoted line break)', () => {
    const lines = [2, 3, 4, 7, 8, 12, 13, 14];
    const orders = new OrderStore();
    lines.forEach((line, i) => orders.push({ ...order(i), line }));
    expect(lines.map((_, i) => orders.lineOf(i))).toEqual(lines);
    expect([...orders].map((row) => row.line)).toEqual(lines);
    expect([2, 4, 5, 7, 13, 15].map((line) => orders.indexOfLine(line))).toEqual([0, 2, -1, 3, 6, -1]);
  });
});
