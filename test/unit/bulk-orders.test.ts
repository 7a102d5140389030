import { isUtf8 } from 'node:buffer';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { notUtf8 } from '../../src/not-utf8.js';
import { readOrderFile } from '../helpers/order-file.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { rejection } from '../helpers/thrown.js';

const folder = mkdtempSync(join(tmpdir(), 'agentpay-orders-'));
let files = 0;
const ordersOf = async (text: string | Buffer, extension = 'csv') => {
  const path = join(folder, `orders-${++files}.${extension}`);
  writeFileSync(path, text);
  return [...(await readOrderFile(path, undefined, () => process.stdin)).rows].map(
    ({ line, key, account, amount }) => ({
      line,
      key,
      account,
      amount,
    }),
  );
};

describe('reading a CSV order file', () => {
  it('plain lines (CRLF, a BOM, empty lines) and the same rows quoted give the same orders and lines', async () => {
    const plain = await ordersOf('\uFEFFkey,service,account,amount\r\nK1,201,a-1,10.00\r\n\r\nK2,201,a-2,20.00\r\n');
    expect(plain).toEqual([
      { line: 2, key: 'K1', account: 'a-1', amount: '10.00' },
      { line: 4, key: 'K2', account: 'a-2', amount: '20.00' },
    ]);
    expect(
      await ordersOf('\uFEFFkey,service,account,amount\r\n"K1",201,a-1,10.00\r\n\r\nK2,"201","a-2",20.00\r\n'),
    ).toEqual(plain);
  });

  it('a quoted cell over two lines is refused (a line break is a control character); each row keeps the line it starts on', async () => {
    const error = await rejection(() =>
      ordersOf('key,service,account,amount\nK1,201,a-1,10.00\n"K\n2",201,a-2,20.00\nK3,201,a-3,x\n'),
    );
    expect(error.message).toContain(
      'has 2 bad rows, nothing was sent:\n  line 3, key: holds the control character U+000A at character 2\n  line 5, amount: "x" is not',
    );
  });

  it('a row with too few cells, or CSV that cannot be read, refuses the file naming the line', async () => {
    await expect(ordersOf('service,account,amount\n201,a-1,10.00\n201,a-2\n')).rejects.toThrow(/line 3/);
    await expect(ordersOf('service,account,amount\n201,"a-1,10.00\n')).rejects.toThrow(/cannot be read as CSV/);
  });
});

describe('reading a JSON-lines order file', () => {
  it('as a CSV file: a BOM, CRLF and empty lines change nothing, and each order keeps its line', async () => {
    const lines = [
      '{"key":"K1","service":"201","account":"a-1","amount":"10.00"}',
      '',
      '{"key":"K2","service":"201","account":"a-2","amount":"20.00"}',
    ];
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
    await expect(readOrderFile(join(folder, 'missing.csv'), undefined, () => process.stdin)).rejects.toThrow(/ENOENT/);
    await expect(readOrderFile(folder, undefined, () => process.stdin)).rejects.toThrow(/EISDIR/);
  });
});

/** The one-line message a refused file gives, and its hint. */
const refusal = async (text: string | Buffer, extension = 'csv') => {
  const error = await rejection(() => ordersOf(text, extension));
  expect(error).toBeInstanceOf(UsageError);
  return { message: error.message, hint: (error as UsageError).hint };
};
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

describe('an order file that is not UTF-8 is refused whole, naming each line and column', () => {
  it('bad bytes in a CSV or JSON-lines file: the first of each line, by its column in characters; the hint says the file must be UTF-8', async () => {
    const csv = bytes(
      '\uFEFFservice,account,amount\n201,12',
      [0xff, 0xfe],
      '34,10.00\n201,ёлка,1.00\r\n201,ё',
      [0xc3, 0x28],
      ',1.00\n',
    );
    const { message, hint } = await refusal(csv);
    expect(message).toMatch(
      /has 2 bad rows, nothing was sent:\n {2}line 2: byte 0xFF at column 7 is not UTF-8\n {2}line 4: byte 0xC3 at column 6 is not UTF-8$/,
    );
    expect(hint).toMatch(/read as UTF-8 \(a BOM is fine\).*--encoding windows-1251/);
    const jsonl = bytes(
      '{"service":"201","account":"a","amount":"1.00"}\n{"service":"201","account":"',
      [0xe9],
      '","amount":"1.00"}\n',
    );
    expect((await refusal(jsonl, 'jsonl')).message).toMatch(
      /has 1 bad row, nothing was sent:\n {2}line 2: byte 0xE9 at column 29 is not UTF-8$/,
    );
  });

  it.each([
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an overlong 3-byte form', [0xe0, 0x80, 0xaf]],
    ['a surrogate (U+D800)', [0xed, 0xa0, 0x80]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a lone continuation byte', [0x80]],
    ['a sequence cut short by the line end', [0xe2, 0x82]],
  ])('%s is not UTF-8', async (_, sequence) => {
    expect(notUtf8(bytes('ab', sequence, '\nok\n'))).toEqual([{ line: 1, column: 3, byte: sequence[0] }]);
  });

  it('agrees with Node on 2,000 seeded random byte strings (seed 25): a problem found exactly when the bytes are not UTF-8', () => {
    const random = seededRandom(25);
    const interesting = [
      0x00, 0x0a, 0x0d, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x90,
      0x8f,
    ];
    for (let i = 0; i < 2000; i++) {
      const sample = Buffer.from(
        Array.from(
          { length: 1 + Math.floor(random() * 12) },
          () => interesting[Math.floor(random() * interesting.length)]!,
        ),
      );
      expect(notUtf8(sample).length === 0, sample.toString('hex')).toBe(isUtf8(sample));
    }
  });

  it('UTF-8 with a BOM, Cyrillic and an emoji is read as before', async () => {
    expect(await ordersOf('\uFEFFservice,account,amount\n201,Иванов 😀,1.00\n')).toEqual([
      { line: 2, key: undefined, account: 'Иванов 😀', amount: '1.00' },
    ]);
  });
});

describe('a cell with a control character is refused, whatever its column', () => {
  it.each([
    ['a NUL', '12\u000034', 'U+0000 at character 3'],
    ['a tab (no delimiter here)', '12\t34', 'U+0009 at character 3'],
    ['DEL', '1234\u007f', 'U+007F at character 5'],
    ['a C1 control (NEL)', '\u0085', 'U+0085 at character 1'],
    ['ESC', 'a\u001b[2J', 'U+001B at character 2'],
  ])('%s in an account (CSV)', async (_, account, where) => {
    expect((await refusal(`service,account,amount\n201,ok,1.00\n201,${account},1.00\n`)).message).toMatch(
      new RegExp(
        `has 1 bad row, nothing was sent:\\n {2}line 3, account: holds the control character ${where.replace('+', '\\+')}$`,
      ),
    );
  });

  it('in JSON lines: an escaped NUL in any field, a raw one, half a surrogate pair', async () => {
    const lines = [
      '{"service":"201","account":"12\\u000034","amount":"1.00"}',
      '{"service":"201","account":"ok","amount":"1.00","key":"k\\u0000"}',
      '{"service":"201","account":"12\u000034","amount":"1.00"}',
      '{"service":"201","account":"\\ud800x","amount":"1.00"}',
      '{"service":"201","account":"😀","amount":"1.00"}',
    ];
    const { message } = await refusal(`${lines.join('\n')}\n`, 'jsonl');
    expect(message).toContain('has 4 bad rows, nothing was sent:\n  line 1');
    expect(message).toContain('line 1, account: holds the control character U+0000 at character 3');
    expect(message).toContain('line 2, key: holds the control character U+0000 at character 2');
    expect(message).toContain('line 3: holds the control character U+0000 at character 31');
    expect(message).toContain('line 4, account: holds U+D800 at character 1: half of a surrogate pair');
  });
});

describe('a JSON-lines row that gives a field twice is refused, not read as its last', () => {
  it.each([
    ['two values', '{"service":"201","account":"1","amount":"1.00","account":"2"}', 'account'],
    ['the same value twice', '{"service":"201","account":"1","account":"1","amount":"1.00"}', 'account'],
    ['one of them escaped', '{"service":"201","account":"1","acc\\u006funt":"2","amount":"1.00"}', 'account'],
    ['an unknown field', '{"service":"201","account":"1","amount":"1.00","x":"1","x":"2"}', 'x'],
  ])('%s', async (_, line, field) => {
    expect((await refusal(`${line}\n`, 'jsonl')).message).toMatch(
      new RegExp(`line 1, ${field}: is given twice in the object`),
    );
  });

  it('strings that look like keys, braces and colons inside values, white space: one key each, read', async () => {
    const line = '{ "service" : "201" , "account":"a\\":\\"account\\": {x}", "amount":"1.00" }';
    expect(await ordersOf(`${line}\n`, 'jsonl')).toEqual([
      { line: 1, key: undefined, account: 'a":"account": {x}', amount: '1.00' },
    ]);
  });
});

describe('a cell over its bound is refused, and never quoted whole', () => {
  const row = (cells: Record<string, string>) =>
    `${JSON.stringify({ service: '201', account: 'a', amount: '1.00', ...cells })}\n`;
  it.each([
    ['account', 'x'.repeat(64), 'x'.repeat(65), 'account: is longer than 64 characters'],
    ['account', '😀'.repeat(64), '😀'.repeat(65), 'account: is longer than 64 characters'],
    ['key', 'k'.repeat(128), 'k'.repeat(129), 'key: is longer than 128 characters'],
    ['service', '9'.repeat(20), '9'.repeat(21), 'service: is longer than 20 characters'],
    ['service', '201', 'mobile', 'service: "mobile" is not a service id (digits, at most 20)'],
    [
      'amount',
      `${'9'.repeat(15)}.${'9'.repeat(6)}`,
      `${'9'.repeat(16)}.00`,
      'amount: "9999999999999999.00" has more digits than an amount may (at most 15 before the point and 6 after)',
    ],
    ['amount', '0.000001', '0.0000001', 'amount: "0.0000001" has more digits than an amount may'],
  ])('%s: %j is read, %j is refused', async (column, good, bad, message) => {
    expect(await ordersOf(row({ [column]: good }), 'jsonl')).toHaveLength(1);
    expect((await refusal(row({ [column]: bad }), 'jsonl')).message).toContain(`line 1, ${message}`);
  });

  it('a 10 MB account or amount: refused in a short message', async () => {
    for (const cells of [{ account: '1'.repeat(10 << 20) }, { amount: '1'.repeat(10 << 20) }]) {
      const { message } = await refusal(row(cells), 'jsonl');
      expect(message).toMatch(/line 1, (account|amount): is longer than \d+ characters$/);
      expect(message.length).toBeLessThan(300);
    }
    const { message } = await refusal(`service,account,${'z'.repeat(10 << 20)}\n201,a,1\n`);
    expect(message.length).toBeLessThan(500);
  });
});
