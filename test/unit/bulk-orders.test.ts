import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrders } from '../../src/commands/pay/bulk/rows.js';

const folder = mkdtempSync(join(tmpdir(), 'agentpay-orders-'));
let files = 0;
const ordersOf = async (text: string, extension = 'csv') => {
  const path = join(folder, `orders-${++files}.${extension}`);
  writeFileSync(path, text);
  return (await readOrders(path, undefined, () => process.stdin)).rows.map(({ line, key, account, amount }) => ({ line, key, account, amount }));
};

describe('reading a CSV order file', () => {
  it('plain lines (CRLF, a BOM, empty lines) and the same rows quoted give the same orders and lines', async () => {
    const plain = await ordersOf('\uFEFFkey,service,account,amount\r\nK1,201,a-1,10.00\r\n\r\nK2,201,a-2,20.00\r\n');
    expect(plain).toEqual([
      { line: 2, key: 'K1', account: 'a-1', amount: '10.00' },
      { line: 4, key: 'K2', account: 'a-2', amount: '20.00' },
    ]);
    expect(await ordersOf('\uFEFFkey,service,account,amount\r\n"K1",201,a-1,10.00\r\n\r\nK2,"201","a-2",20.00\r\n')).toEqual(plain);
  });

  it('a quoted cell over two lines: each row keeps the line it starts on', async () => {
    expect(await ordersOf('key,service,account,amount\nK1,201,a-1,10.00\n"K\n2",201,a-2,20.00\nK3,201,a-3,30.00\n')).toEqual([
      { line: 2, key: 'K1', account: 'a-1', amount: '10.00' },
      { line: 3, key: 'K\n2', account: 'a-2', amount: '20.00' },
      { line: 5, key: 'K3', account: 'a-3', amount: '30.00' },
    ]);
  });

  it('a row with too few cells, or CSV that cannot be read, refuses the file naming the line', async () => {
    await expect(ordersOf('service,account,amount\n201,a-1,10.00\n201,a-2\n')).rejects.toThrow(/line 3/);
    await expect(ordersOf('service,account,amount\n201,"a-1,10.00\n')).rejects.toThrow(/cannot be read as CSV/);
  });
});

describe('reading a JSON-lines order file', () => {
  it('as a CSV file: a BOM, CRLF and empty lines change nothing, and each order keeps its line', async () => {
    const lines = ['{"key":"K1","service":"201","account":"a-1","amount":"10.00"}', '', '{"key":"K2","service":"201","account":"a-2","amount":"20.00"}'];
    const expected = [
      { line: 1, key: 'K1', account: 'a-1', amount: '10.00' },
      { line: 3, key: 'K2', account: 'a-2', amount: '20.00' },
    ];
    expect(await ordersOf(`${lines.join('\n')}\n`, 'jsonl')).toEqual(expected);
    expect(await ordersOf(`\uFEFF${lines.join('\r\n')}`, 'jsonl')).toEqual(expected);
    // Told from its first character when the name does not say.
    expect(await ordersOf(`\uFEFF${lines.join('\n')}`, 'txt')).toEqual(expected);
  });

  it('a file that cannot be read is refused with its reason', async () => {
    await expect(readOrders(join(folder, 'missing.csv'), undefined, () => process.stdin)).rejects.toThrow(/ENOENT/);
    await expect(readOrders(folder, undefined, () => process.stdin)).rejects.toThrow(/EISDIR/);
  });
});
