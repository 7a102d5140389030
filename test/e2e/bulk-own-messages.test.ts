import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { ordersFile, resultsOf } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { answer, envelopeText, type FakeGateway, startFakeGateway } from '../helpers/fake-gateway.js';
import { envFor } from '../helpers/gateway-env.js';

/**
 * A gateway that names each payment in its Message (as some do: its id, its time) gives every
 * row a word of its own: the results file has each row's own, a line a row, and a resume gives
 * each row's own back, from the ledger.
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

/** The results file's data lines (LF, as the order file has them; the header left out). */
const resultLines = (orders: string) => readFileSync(resultsOf(orders), 'utf8').trimEnd().split('\n').slice(1);

describe('a gateway whose every Message is its own', () => {
  it("writes each row's own word to the results file, a line a row; a second run sends nothing and gives each back", async () => {
    const env = await namingGateway();
    const count = 300;
    const orders = ordersFile(rowsOf(count));
    const first = await runCli(['pay', '--from-file', orders, '--yes', '--json', '--concurrency', '8'], { env });
    expect(first.code, first.stderr).toBe(0);
    const paid = jsonLines(first.stdout);
    expect(paid).toHaveLength(count);
    expect(paid.every((row) => row.state === 'success' && row.message === messageOf(row.transactionId as string))).toBe(
      true,
    );
    const wordsIn = (lines: string[]) => {
      expect(lines).toHaveLength(count);
      for (const row of paid)
        expect(lines[(row.line as number) - 2]).toMatch(
          new RegExp(`,${row.transactionId},.*,success,10,${messageOf(row.transactionId as string)}$`),
        );
    };
    wordsIn(resultLines(orders));

    const payments = () => fake!.received.filter((form) => form.get('RequestType') === 'Payment').length;
    expect(payments()).toBe(count);
    const second = await runCli(['pay', '--from-file', orders, '--yes', '--json'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(payments()).toBe(count);
    expect(jsonLines(second.stdout).map((row) => [row.line, row.state, row.skipped, row.message])).toEqual(
      paid.map((row) => [row.line, 'success', true, messageOf(row.transactionId as string)]),
    );
    wordsIn(resultLines(orders));
  }, 60_000);
});
