import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { englishLeft } from '../helpers/english-words.js';
import { envFor } from '../helpers/gateway-env.js';
import { intent, linesOf, outcome } from '../helpers/journal-lines.js';
import { ledgerRecords } from '../helpers/ledger-file.js';

/**
 * `--lang ru` over the commands a desk reads daily (doctor, history, report, reconcile,
 * status of many ids, ledger import), against the sandbox: each screen scanned for English words left.
 * Allowed as in language.test.ts, and the settings' keys (`baseUrl`: the config file's words)
 * and the values doctor shows as they are (paths, `plain`, `local`).
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
let paid = '';
beforeAll(async () => {
  sandbox = await startSandbox({ recordRequests: true });
  env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир' });
  const result = await runCli(['pay', '--service', '202', '--account', '7011234567', '--amount', '1500.00', '--json'], {
    env,
  });
  paid = /"transactionId":"(\d+)"/i.exec(result.stdout)?.[1] ?? '';
});
afterAll(async () => {
  await sandbox.close();
});

const ru = (args: string[]) => runCli(['--lang', 'ru', ...args], { env });
function expectRussian(result: CliResult, allowed: Iterable<string> = []): void {
  expect(englishLeft(`${result.stdout}\n${result.stderr}`, allowed)).toEqual([]);
}

describe('agentpay --lang ru: every command a desk reads', () => {
  it('doctor: headings, sources, the verdict and the ledger in Russian; the settings keyed as the config file names them', async () => {
    const json = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as {
      settings: Record<string, { value: string | null }>;
    };
    const keys = Object.keys(json.settings);
    const values = Object.values(json.settings).flatMap(({ value }) =>
      value === null ? [] : (value.match(/[A-Za-z]{3,}/g) ?? []),
    );
    const result = await ru(['doctor']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Настройки');
    expect(result.stdout).toContain('Журнал');
    expectRussian(result, [
      ...keys,
      ...values.filter((word) => !['not', 'found', 'the', 'embedded', 'sandbox', 'asked', 'for'].includes(word)),
    ]);
  });

  it('history and report: headings, states, amounts with a comma, Итого', async () => {
    const history = await ru(['history']);
    expect(history.code).toBe(0);
    expect(history.stdout).toMatch(/Состояние.*Услуга.*Счёт.*Сумма/);
    expect(history.stdout).toContain('1500,00 KZT');
    expectRussian(history);
    const report = await ru(['report', '--date', 'today']);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('Итого');
    expect(report.stdout).toContain('1500,00');
    expectRussian(report);
    const none = await ru(['report', '--date', 'yesterday']);
    expectRussian(none);
    const since = await ru(['history', '--since', '1m', '--state', 'failed']);
    expect(since.stderr).toContain('нет подходящих транзакций');
    expectRussian(since);
  });

  it('reconcile and status of many ids: the summary in Russian', async () => {
    const reconcile = await ru(['reconcile']);
    expect(reconcile.code).toBe(0);
    expectRussian(reconcile);
    const status = await ru(['status', paid, '1795000000000000001']);
    expect(status.stderr).toContain('проверено: 2: успех — 1');
    expectRussian(status);
  });

  it('ledger import: the summary in Russian, its count in its plural form; again, nothing added', async () => {
    const journal = join(env.HOME ?? '', 'earlier.jsonl');
    // A real gateway's records: play money (journal-lines.ts's own gateway) stays out of these books.
    const real = [intent('1795000000000000101'), outcome('1795000000000000101', 'success')].map((record) => ({
      ...record,
      gateway: 'http://127.0.0.1:9',
    }));
    writeFileSync(journal, linesOf(real));
    const ledger = join(env.HOME ?? '', 'imported.sqlite');
    const imported = await ru(['--ledger', ledger, 'ledger', 'import', journal]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('добавлено: 2 записи');
    expectRussian(imported);
    const again = await ru(['--ledger', ledger, 'ledger', 'import', journal]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('ничего не добавлено (всё уже было там)');
    expectRussian(again);
    expect((await ledgerRecords(ledger)).map((record) => record.kind)).toEqual(['intent', 'outcome']);
  });

  it('the receipt heading agrees with its noun: Транзакция прошла', async () => {
    const status = await ru(['status', paid]);
    expect(status.stdout).toContain('Транзакция прошла');
    expectRussian(status);
  });
});
