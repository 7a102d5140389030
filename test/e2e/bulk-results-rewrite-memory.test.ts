import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A bulk run writes its results file whole at its start and at its end (results-file.ts
 * rewrite), a row at a time. What a row leaves behind must die young: each row's line number
 * made text by String() went through V8's number-to-string cache, which lives in the old
 * generation, so every row's line survived the young collections and was moved to the old one
 * (~25 bytes a row), and the heap of a run of 1,000,000 rows grew by tens of MB at once, twice.
 * Measured in a process of its own by what V8 says it promoted (--trace-gc-nvp: the test's
 * instrument, not agentpay's). The writer is the built one (dist/), as the CLI runs it.
 */
const resultsFile = fileURLToPath(new URL('../../dist/commands/pay/bulk/results-file.js', import.meta.url));
const rows = 200_000;

// The rows' own texts are made with toFixed, so that only the writer's are weighed.
const child = `
const { ResultsWriter } = await import(process.argv[1]);
const count = Number(process.argv[3]);
function* rows() {
  for (let i = 0; i < count; i++)
    yield {
      line: i + 2, key: 'order-' + i.toFixed(0), service: '202', account: (7000000000 + i).toFixed(0),
      currency: 'KZT', invoiceId: undefined, invoicePosition: undefined, amount: '1500.00',
      transactionId: (1795810799084675198n + BigInt(i)).toString(), paidAmount: '1500.00',
      paidInvoiceId: undefined, voucher: undefined, state: 'success', status: '10', message: 'Успех',
    };
}
const writer = new ResultsWriter(process.argv[2]);
writer.rewrite(rows());
writer.close();
`;

describe("a bulk run's results file written whole", () => {
  it(`leaves under 10 bytes a row to the old generation (${rows.toLocaleString('en')} rows)`, () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agentpay-results-')), 'orders.results.csv');
    const trace = execFileSync(
      process.execPath,
      ['--trace-gc-nvp', '--input-type=module', '-e', child, resultsFile, path, String(rows)],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    // Node 20-24 write `promoted=N`; Node 26 writes each collection as JSON, `"promoted":N`.
    const counts = [...trace.matchAll(/promoted(?:=|":)(\d+)/g)];
    const promoted = counts.reduce((sum, [, bytes]) => sum + Number(bytes), 0);
    expect(counts.length).toBeGreaterThan(0);
    expect(promoted / rows, `${promoted} bytes promoted`).toBeLessThan(10);
  }, 60_000);
});
