import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { wordsKeptAtMost } from '../../src/commands/pay/bulk/bulk-rows.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { ordersFile, resultsOf } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { envFor } from '../helpers/gateway-env.js';

/**
 * A gateway that names each payment in its Message (as some do: its id, its time) gives every
 * row a word of its own. A run keeps at most wordsKeptAtMost of them for the rewrite of the
 * results file at its end; past that it keeps none (bulk-rows.ts) and leaves the file as
 * appended, where every row's last line is its word. Kept, they cost ~350 bytes a row.
 */
let fake: FakeGateway | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const messageOf = (transactionId: string) => `Платёж ${transactionId} проведён`;

async function namingGateway() {
  fake = await startFakeGateway((form, _request, response) =>
    answer(response, 200, envelopeText(form, { message: messageOf(form.get('TransactionID')!) })),
  );
  return envFor({ baseUrl: fake.baseUrl } as RunningSandbox);
}

const rowsOf = (count: number) => [
  'key,service,account,amount',
  ...Array.from({ length: count }, (_, i) => `k${i},201,${7_000_000_000 + i},10.00`),
];

/** The results file's data lines (CRLF, as RFC 4180 has them; the header left out). */
const resultLines = (orders: string) => readFileSync(resultsOf(orders), 'utf8').trimEnd().split('\r\n').slice(1);

describe('a gateway whose every Message is its own', () => {
  it(`leaves the results file as appended past ${wordsKeptAtMost} words: each row's last line is its word, and a second run sends nothing`, async () => {
    const env = await namingGateway();
    const count = wordsKeptAtMost + 400;
    const orders = ordersFile(rowsOf(count));
    const first = await runCli(['pay', '--from-file', orders, '--yes', '--json', '--concurrency', '8'], { env });
    expect(first.code, first.stderr).toBe(0);
    const paid = jsonLines(first.stdout);
    expect(paid).toHaveLength(count);
    expect(paid.every((row) => row.state === 'success' && row.message === messageOf(row.transactionId as string))).toBe(
      true,
    );

    // The planned line of each row, then a line a row as it ended, with that payment's own Message.
    const lines = resultLines(orders);
    expect(lines).toHaveLength(count * 2);
    const lastOfLine = new Map(lines.map((line) => [line.split(',')[0], line]));
    expect(lastOfLine.size).toBe(count);
    for (const row of paid) {
      const last = lastOfLine.get(String(row.line))!;
      expect(last).toContain(`,${row.transactionId},`);
      expect(last).toMatch(new RegExp(`,success,10,${messageOf(row.transactionId as string)}$`));
    }

    const payments = () => fake!.received.filter((form) => form.get('RequestType') === 'Payment').length;
    expect(payments()).toBe(count);
    const second = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(payments()).toBe(count);
    // Each row's own word given back, though the resume kept none of them (results-read.ts,
    // resume-ledger.ts): read again from the results file, where the ledger says the same.
    const resumed = jsonLines(second.stdout);
    expect(resumed.map((row) => [row.line, row.state, row.skipped, row.message])).toEqual(
      paid.map((row) => [row.line, 'success', true, messageOf(row.transactionId as string)]),
    );
    // Every row final, the second run wrote the file whole at its start, each row's word in it, and appended nothing.
    const rewritten = resultLines(orders);
    expect(rewritten).toHaveLength(count);
    for (const row of paid)
      expect(rewritten[(row.line as number) - 2]).toMatch(
        new RegExp(`,${row.transactionId},.*,success,10,${messageOf(row.transactionId as string)}$`),
      );
  }, 60_000);

  it('writes the results file whole, a line a row, while the words are few enough', async () => {
    const env = await namingGateway();
    const orders = ordersFile(rowsOf(50));
    const run = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const lines = resultLines(orders);
    expect(lines).toHaveLength(50);
    for (const row of jsonLines(run.stdout))
      expect(lines[(row.line as number) - 2]).toMatch(
        new RegExp(`,${row.transactionId},.*,success,10,${messageOf(row.transactionId as string)}$`),
      );
  });
});
