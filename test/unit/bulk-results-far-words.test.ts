import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wordsKeptAtMost } from '../../src/commands/pay/bulk/bulk-rows.js';
import type { OrderStore } from '../../src/commands/pay/bulk/order-store.js';
import { type ResultRow, ResultsWriter } from '../../src/commands/pay/bulk/results-file.js';
import { readResults } from '../../src/commands/pay/bulk/results-read.js';
import { readOrders } from '../../src/commands/pay/bulk/rows.js';
import type { CsvDelimiter } from '../../src/render/csv.js';

/**
 * A resume of a run whose gateway named each payment in its Message: past wordsKeptAtMost
 * distinct words, a row keeps where its record is in the results file and its word is read again
 * from there (results-read.ts, results-record.ts). Each row's word must come back as csv-parse
 * read it the first time, whatever wrote the file: agentpay (any delimiter, a decimal comma,
 * lines appended after the rewrite) or a spreadsheet program (a BOM, LF line ends, every cell
 * quoted, blank lines).
 */
const folder = mkdtempSync(join(tmpdir(), 'agentpay-far-words-'));
const count = wordsKeptAtMost + 700;

/** Messages a gateway may send: the delimiters, quotes, line breaks, a formula's first character, Cyrillic, emoji, none at all. */
const messageOf = (i: number): string | undefined => {
  if (i % 97 === 0) return undefined;
  if (i === 1234) return `Платёж ${'я'.repeat(70_000)}`; // longer than a block read
  // A formula's first character, or a tab, first for some (agentpay writes an apostrophe before them).
  const first = i & 1 ? '=SUM(A1) ' : i & 2 ? '\t' : i & 4 ? "'" : '';
  const pieces = [', "ок"', ';', '\t', '\r\n', ' 🙂', '""', "'"];
  return `${first}Платёж ${i}${pieces.filter((_, k) => (i >> (k + 3)) & 1).join('')}`;
};

async function ordersOf(name: string): Promise<{ orders: OrderStore; results: string }> {
  const path = join(folder, `${name}.csv`);
  const lines = Array.from({ length: count }, (_, i) => `k${i},202,${7_000_000_000 + i},10.00`);
  writeFileSync(path, ['key,service,account,amount', ...lines].join('\n'));
  const { rows } = await readOrders(path, undefined, () => process.stdin);
  return { orders: rows, results: join(folder, `${name}.results.csv`) };
}

/** Each row as its last line says, and the lines before it where a row has two. */
function rowsOf(orders: OrderStore): { planned: ResultRow[]; ended: ResultRow[] } {
  const planned: ResultRow[] = [];
  const ended: ResultRow[] = [];
  for (let index = 0; index < orders.length; index++) {
    const order = orders.get(index);
    const row: ResultRow = {
      ...order,
      transactionId: `${1_795_000_000_000_000_000n + BigInt(index)}`,
      paidAmount: order.amount,
      paidInvoiceId: index % 5 === 0 ? `${90_000 + index}` : undefined,
      voucher: index % 7 === 0 ? `Тариф «${index}»` : undefined,
      state: 'planned',
      status: undefined,
      message: undefined,
    };
    planned.push(row);
    ended.push({
      ...row,
      state: index % 11 === 0 ? 'failed' : 'success',
      status: `${index % 3}`,
      message: messageOf(index),
    });
  }
  return { planned, ended };
}

const wordOf = (row: ResultRow) => [row.paidAmount, row.paidInvoiceId, row.voucher, row.state, row.status, row.message];

async function expectWordsBack(orders: OrderStore, results: string, ended: ResultRow[]) {
  const read = (await readResults(results, orders))!;
  try {
    expect(read.changed).toEqual([]);
    expect(read.prior.readsFile).toBe(true);
    // A rewrite renames a new file over the results file: what this run reads stays the old one's.
    writeFileSync(`${results}.new`, 'line,state\r\n');
    renameSync(`${results}.new`, results);
    // Read twice, as a run does (the start's rewrite, then the rows).
    for (let pass = 0; pass < 2; pass++) {
      const back = ended.map((_, index) => wordOf(read.prior.get(index)!));
      expect(back).toEqual(ended.map(wordOf));
    }
    expect(ended.map((_, index) => read.prior.wordOf(index))).toEqual(ended.map((row) => [row.status, row.message]));
  } finally {
    read.prior.release();
  }
}

describe('words read again from the results file', () => {
  for (const notation of [
    {},
    { delimiter: ';' as CsvDelimiter, decimalComma: true },
    { delimiter: '\t' as CsvDelimiter },
  ])
    it(`gives back each row's word from a file agentpay wrote (${JSON.stringify(notation)}), its last line winning`, async () => {
      const { orders, results } = await ordersOf(
        `written-${notation.delimiter === '\t' ? 'tab' : (notation.delimiter ?? 'comma')}`,
      );
      const { planned, ended } = rowsOf(orders);
      const writer = new ResultsWriter(results, notation);
      writer.rewrite(planned);
      // Some rows end twice (a pending row settled later): the second line is the word.
      for (const row of ended) writer.append(row.line % 13 === 0 ? { ...row, state: 'pending', message: 'ждём' } : row);
      for (const row of ended) if (row.line % 13 === 0) writer.append(row);
      writer.close();
      await expectWordsBack(orders, results, ended);
    });

  it("gives back each row's word from a copy a spreadsheet program saved: BOM, LF, every cell quoted, blank lines", async () => {
    const { orders, results } = await ordersOf('spreadsheet');
    const { ended } = rowsOf(orders);
    const quoted = (cell: string | number | undefined) => `"${String(cell ?? '').replaceAll('"', '""')}"`;
    const header = [
      'line',
      'key',
      'service',
      'account',
      'currency',
      'invoice-id',
      'invoice',
      'amount',
      'transaction-id',
      'paid-amount',
      'paid-invoice-id',
      'voucher',
      'state',
      'status',
      'message',
    ];
    const lines = ended.map(
      (row, i) =>
        [
          row.line,
          row.key,
          row.service,
          row.account,
          row.currency,
          '',
          '',
          row.amount,
          row.transactionId,
          row.paidAmount,
          row.paidInvoiceId,
          row.voucher,
          row.state,
          row.status,
          row.message,
        ]
          .map(quoted)
          .join(',') + (i % 50 === 0 ? '\n\n' : '\n'),
    );
    writeFileSync(results, `\uFEFF${header.join(',')}\n${lines.join('')}`);
    await expectWordsBack(orders, results, ended);
  });

  it('keeps every word while they are few, and the file is not held open', async () => {
    const { orders, results } = await ordersOf('few');
    const { planned, ended } = rowsOf(orders);
    const few = ended.map((row) => ({ ...row, message: `word ${row.line % 40}` }));
    const writer = new ResultsWriter(results);
    writer.rewrite(planned);
    for (const row of few) writer.append(row);
    writer.close();
    const read = (await readResults(results, orders))!;
    expect(read.prior.readsFile).toBe(false);
    expect(few.map((_, index) => wordOf(read.prior.get(index)!))).toEqual(few.map(wordOf));
  });

  /**
   * The guarantee a resume's memory rests on: what the rows keep does not grow with their words.
   * Measured in a process of its own on the built code (dist/), as the CLI runs it: the heap a
   * file's rows hold once read back, for 20,000 and for 60,000 rows whose every Message is its
   * own and ~200 bytes long; the difference a row (the first wordsKeptAtMost words are kept
   * either way). Kept as words, as before, it was ~600 bytes a row.
   */
  it('keeps no word a row: the heap grows by less than 64 bytes a row', async () => {
    const built = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));
    const child = `
      const { writeFileSync } = await import('node:fs');
      const { readResults } = await import(process.argv[1]);
      const { readOrders } = await import(process.argv[2]);
      const folder = process.argv[3];
      const ids = (i) => (1795000000000000000n + BigInt(i)).toString();
      const message = (i) => 'Платёж ' + ids(i) + ' проведён ' + 'x'.repeat(150);
      const header = 'line,key,service,account,currency,invoice-id,invoice,amount,transaction-id,paid-amount,paid-invoice-id,voucher,state,status,message\\r\\n';
      let right = true;
      const held = async (rows) => {
        const path = folder + '/heap-' + rows;
        writeFileSync(path + '.csv', 'key,service,account,amount\\n' + Array.from({ length: rows }, (_, i) => 'k' + i + ',202,' + (7000000000 + i) + ',10.00').join('\\n'));
        writeFileSync(path + '.results.csv', header + Array.from({ length: rows }, (_, i) => (i + 2) + ',k' + i + ',202,' + (7000000000 + i) + ',KZT,,,10.00,' + ids(i) + ',10.00,,,success,10,' + message(i) + '\\r\\n').join(''));
        const { rows: orders } = await readOrders(path + '.csv', undefined, () => process.stdin);
        global.gc();
        const before = process.memoryUsage().heapUsed;
        const read = await readResults(path + '.results.csv', orders);
        global.gc();
        const heap = process.memoryUsage().heapUsed - before;
        right &&= read.prior.get(rows - 3).message === message(rows - 3);
        read.prior.release();
        return heap;
      };
      const [few, many] = [await held(20000), await held(60000)];
      console.log(JSON.stringify({ perRow: (many - few) / 40000, right }));
    `;
    const { perRow, right } = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--expose-gc',
          '--input-type=module',
          '-e',
          child,
          built('commands/pay/bulk/results-read.js'),
          built('commands/pay/bulk/rows.js'),
          folder,
        ],
        { encoding: 'utf8' },
      ),
    ) as { perRow: number; right: boolean };
    expect(right).toBe(true);
    expect(perRow).toBeLessThan(64);
  });
});
