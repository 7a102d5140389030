import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

/** `agentpay history` over a journal that holds payments made through two gateways. */
let first: RunningSandbox;
let second: RunningSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  ({ sandbox: first, env } = await sandboxWithEnv());
  ({ sandbox: second } = await sandboxWithEnv());
  expect(second.baseUrl).not.toBe(first.baseUrl);
  const pay = (baseUrl: string, txnId: string) =>
    runCli(
      ['--base-url', baseUrl, 'pay', '--service', '201', '--account', `a-${txnId}`, '--amount', '5', '--txn-id', txnId],
      { env },
    );
  expect((await pay(first.baseUrl, '7000001')).code).toBe(0);
  expect((await pay(second.baseUrl, '7000002')).code).toBe(0);
  expect((await pay(first.baseUrl, '7000003')).code).toBe(0);
});
afterAll(async () => {
  await first.close();
  await second.close();
});

/** The table's rows as lists of cells (NO_COLOR: ASCII borders). */
const cells = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

describe('history across gateways', () => {
  it('a Gateway column when more than one gateway is in view', async () => {
    const result = await runCli(['history'], { env });
    expect(result.code).toBe(0);
    const [head, ...rows] = cells(result.stdout);
    expect(head).toEqual(['When', 'Gateway', 'TransactionID', 'State', 'Service', 'Account', 'Amount', 'RequestID']);
    expect(rows.map((row) => [row[1], row[2]])).toEqual([
      [first.baseUrl, '7000001'],
      [second.baseUrl, '7000002'],
      [first.baseUrl, '7000003'],
    ]);
  });

  it('--gateway keeps one (a trailing slash is the same base URL); with one gateway in view, no Gateway column', async () => {
    const result = await runCli(['history', '--gateway', `${first.baseUrl}/`], { env });
    expect(result.code).toBe(0);
    const [head, ...rows] = cells(result.stdout);
    expect(head).not.toContain('Gateway');
    expect(rows.map((row) => row[1])).toEqual(['7000001', '7000003']);
    const json = await runCli(['history', '--json', '--gateway', second.baseUrl], { env });
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({ transactionId: '7000002', gateway: second.baseUrl }),
    ]);
  });

  it('--gateway that matches nothing says so and lists the gateways the journal holds', async () => {
    const result = await runCli(['history', '--gateway', 'sandbox'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('match');
    expect(result.stderr).toContain(`gateways in the ledger: ${first.baseUrl}, ${second.baseUrl}`);
    expect((await runCli(['history', '--gateway', ' '], { env })).code).toBe(2);
  });

  it('a journal of one gateway has no Gateway column', async () => {
    const only = isolatedEnv({
      AGENTPAY_BASE_URL: first.baseUrl,
      AGENTPAY_AGENT_ID: env.AGENTPAY_AGENT_ID!,
      AGENTPAY_PASSWORD: env.AGENTPAY_PASSWORD!,
    });
    expect((await runCli(['pay', '--service', '201', '--account', 'a-1', '--amount', '5'], { env: only })).code).toBe(
      0,
    );
    const [head] = cells((await runCli(['history'], { env: only })).stdout);
    expect(head).toEqual(['When', 'TransactionID', 'State', 'Service', 'Account', 'Amount', 'RequestID']);
  });

  it("a journal names who paid: operator and host in JSON, and --operator keeps one person's payments", async () => {
    const shared = isolatedEnv({
      AGENTPAY_BASE_URL: first.baseUrl,
      AGENTPAY_AGENT_ID: env.AGENTPAY_AGENT_ID!,
      AGENTPAY_PASSWORD: env.AGENTPAY_PASSWORD!,
    });
    for (const operator of ['ann', 'bob']) {
      const paid = await runCli(['pay', '--service', '201', '--account', `by-${operator}`, '--amount', '5'], {
        env: { ...shared, AGENTPAY_OPERATOR: operator },
      });
      expect(paid.code).toBe(0);
    }
    const bob = jsonLines((await runCli(['history', '--json', '--operator', 'bob'], { env: shared })).stdout);
    expect(bob).toEqual([expect.objectContaining({ account: 'by-bob', operator: 'bob', host: expect.any(String) })]);
    expect((await runCli(['history', '--json', '--operator', 'cid'], { env: shared })).stdout).toBe('');
  });
});
