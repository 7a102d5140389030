import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ResultRow, ResultsWriter } from '../../src/commands/pay/bulk/results-file.js';

const row = (line: number): ResultRow => ({
  line,
  key: `order-${line}`,
  service: '202',
  account: `${7_000_000_000 + line}`,
  currency: 'KZT',
  invoiceId: undefined,
  invoicePosition: undefined,
  amount: '1500.00',
  transactionId: `${1_795_798_738_946_608_922n + BigInt(line)}`,
  paidAmount: '1500.00',
  paidInvoiceId: undefined,
  voucher: undefined,
  state: 'success',
  status: '10',
  message: 'Успех',
});

describe('the results file while a run appends to it', () => {
  it('writes the lines of rows that end in one turn of the event loop as they come, not all at its end', () => {
    // A resume's skipped rows end without waiting on anything: 1,000,000 of them in one turn
    // held every line in one string until it ended (~1 GB peak RSS on Node 20).
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-results-')), 'orders.results.csv');
    const writer = new ResultsWriter(path);
    writer.start();
    const header = statSync(path).size;
    for (let line = 2; line < 10_002; line++) writer.append(row(line));
    // Still in the same turn: most of the lines are on disk already, whole.
    const written = statSync(path).size - header;
    expect(written).toBeGreaterThan(0);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    writer.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 10_000);
    expect(lines.at(-1)).toMatch(/^10001,order-10001,/);
    expect(written).toBeGreaterThan(statSync(path).size - header - 64 * 1024 - 1);
  });
});
