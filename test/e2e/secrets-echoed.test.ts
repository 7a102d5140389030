import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, isolatedEnv, jsonLines, runCli } from '../helpers/cli.js';
import { startEchoingGateway, storedSpellings } from '../helpers/echoing-gateway.js';
import type { FakeGateway } from '../helpers/fake-gateway.js';
import { defaultLedger } from '../helpers/ledger-file.js';
import { storedTexts } from '../helpers/ledger-text.js';
import { freshDatabase, type PostgresServer, sql, startPostgres } from '../helpers/postgres.js';

// A gateway that echoes the agent password in every spelling (test/helpers/echoing-gateway.ts):
// the client blanks it once, where the answer comes in, so no store and no output holds it.
const password = 'Ech#o wörd&"/+%x9';
const spellings = storedSpellings(password);

function expectNoSpelling(where: string, text: string): void {
  const found = spellings.filter((spelling) => text.includes(spelling));
  expect(found, `${where} holds the password`).toEqual([]);
}

/** A cassette's text, and its body's bytes as UTF-8 (base64 hides a spelling from a plain search). */
function cassetteTexts(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const text = readFileSync(join(directory, name), 'utf8');
    const body = (JSON.parse(text) as { answer: { body: string } }).answer.body;
    return [text, Buffer.from(body, 'base64').toString('utf8')];
  });
}

let gateway: FakeGateway;
let postgres: PostgresServer;
beforeAll(async () => {
  [gateway, postgres] = await Promise.all([startEchoingGateway(password), startPostgres()]);
}, 30_000);
afterAll(async () => {
  await Promise.all([gateway?.close(), postgres?.remove()]);
});

const gatewayEnv = (extra: Record<string, string> = {}) =>
  isolatedEnv({
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: '7',
    AGENTPAY_PASSWORD: password,
    AGENTPAY_SETTLE_DELAY: '20',
    ...extra,
  });

/** Nothing any command printed, and no cassette, holds a spelling. */
function expectNoSpellingIn(results: readonly CliResult[], cassettes: string): void {
  for (const [index, result] of results.entries()) {
    expectNoSpelling(`stdout of command ${index + 1}`, result.stdout);
    expectNoSpelling(`stderr of command ${index + 1}`, result.stderr);
  }
  const recorded = cassetteTexts(cassettes);
  expect(recorded.length).toBeGreaterThan(0);
  for (const text of recorded) expectNoSpelling('a cassette', text);
}

/** check and pay (recorded, check traced), then receipt and history as a person reads them, without the password set. */
async function payAndRead(env: Record<string, string>, cassettes: string) {
  const run = async (args: string[], runEnv = env) => {
    const result = await runCli(args, { env: runEnv });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  const results: CliResult[] = [
    await run(['-v', '--record', cassettes, 'check', '--service', '101', '--account', 'player-1']),
    await run([
      '--record',
      cassettes,
      '--json',
      'pay',
      '--service',
      '101',
      '--account',
      'player-1',
      '--invoice-id',
      '5002',
    ]),
  ];
  const transactionId = String(jsonLines(results[1]!.stdout)[0]!.transactionId);
  const reader = { ...env };
  delete reader.AGENTPAY_PASSWORD;
  const receipt = await run(['receipt', transactionId], reader);
  const history = await run(['--json', 'history'], reader);
  // check --json prints the gateway's envelope whole, besides the vouchers.
  const checked = await run(['--json', 'check', '--service', '101', '--account', 'player-1']);
  results.push(receipt, history, await run(['--json', 'receipt', transactionId], reader), checked);
  return {
    results,
    /** What was paid is all there, with *** where the password was: redacted, not left out. */
    expectKeptRedacted() {
      expect(results[0]!.stderr, 'the --verbose trace of the answer').toContain('Coins 5001 ***');
      expect(receipt.stdout).toContain('wrong password? ***');
      expect(receipt.stdout).toContain('Coins 5002 ***');
      expect(jsonLines(checked.stdout)[0]).toMatchObject({ envelope: { Message: expect.stringContaining('***') } });
      expect(jsonLines(history.stdout)).toMatchObject([{ transactionId, amount: '250.50', state: 'success' }]);
      expect(gateway.received.at(-1)?.get('AgentPassword')).toBe(password);
    },
  };
}

describe('a gateway that echoes the password in every spelling', () => {
  it('leaves none in any cell or page of the SQLite ledger, the cassettes, receipt or history --json', async () => {
    const env = gatewayEnv();
    const cassettes = mkdtempSync(join(tmpdir(), 'agentpay-echoed-'));
    const { results, expectKeptRedacted } = await payAndRead(env, cassettes);
    const stored = storedTexts(defaultLedger(env));
    for (const { where, value } of stored) expectNoSpelling(where, value);
    expectNoSpellingIn(results, cassettes);
    expect(stored.map(({ value }) => value).join('\n')).toContain('Coins 5002 ***');
    expectKeptRedacted();
  });

  it('leaves none in any text or jsonb column of a PostgreSQL team ledger', async () => {
    const ledger = await freshDatabase(postgres);
    const env = gatewayEnv({ AGENTPAY_LEDGER: ledger, AGENTPAY_OPERATOR: 'ann' });
    const cassettes = mkdtempSync(join(tmpdir(), 'agentpay-echoed-'));
    const { results, expectKeptRedacted } = await payAndRead(env, cassettes);
    const columns = await sql<{ table_name: string; column_name: string }>(
      ledger,
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb')`,
    );
    const stored: { where: string; value: string }[] = [];
    for (const { table_name, column_name } of columns) {
      const rows = await sql<{ value: string | null }>(
        ledger,
        `SELECT "${column_name}"::text AS value FROM "${table_name}"`,
      );
      stored.push(...rows.map((row) => ({ where: `${table_name}.${column_name}`, value: row.value ?? '' })));
    }
    for (const { where, value } of stored) expectNoSpelling(where, value);
    expectNoSpellingIn(results, cassettes);
    expect(stored.map(({ value }) => value).join('\n')).toContain('Coins 5002 ***');
    expectKeptRedacted();
  });
});
