import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { type CliResult, jsonLines, runCli } from '../helpers/cli.js';
import { englishLeft } from '../helpers/english-words.js';
import { envFor, paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';
import { runInProcess } from '../helpers/in-process-run.js';
import { defaultLedger, ledgerRecords } from '../helpers/ledger-file.js';

/**
 * `--lang ru` end to end: check, pay (paid, refused, an unreachable gateway, a bad flag),
 * receipt and help, each screen scanned for English words left. Allowed: the spec's names
 * (TransactionID, InvoiceId, ResponseStatus…), codes, flags, commands as typed, the sandbox's
 * voucher names, and the gateway's own Messages, which are shown as sent.
 */
function expectRussian(result: CliResult): void {
  expect(englishLeft(`${result.stdout}\n${result.stderr}`)).toEqual([]);
}

let sandbox: RunningSandbox;
let base: Record<string, string>;
beforeAll(async () => {
  ({ sandbox, env: base } = await sandboxWithEnv());
  // The ledger records who paid; a Russian name, so that the receipt's words are all checked.
  base.AGENTPAY_OPERATOR = 'кассир';
});
afterAll(async () => {
  await sandbox.close();
});

const ru = (args: string[], env = base) => runCli(['--lang', 'ru', ...args], { env });

describe('agentpay --lang ru', () => {
  it('the word check catches an English word left (it can fail)', () => {
    expect(englishLeft('✓ Платёж succeeded\n  Сумма  1500,00 KZT')).toEqual(['succeeded']);
    expect(englishLeft('Сообщение  Ошибка: account 0000000000 is refused by the provider')).toEqual([]);
  });

  it('check: the voucher table in Russian, the count in its plural form, the amounts with a comma', async () => {
    // Wide enough that no voucher name wraps: the names are the gateway's, taken out whole.
    const result = await ru(['check', '--service', '101', '--account', '7011234567'], { ...base, COLUMNS: '200' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Название');
    expect(result.stdout).toContain('499,00');
    expect(result.stderr).toContain('4 ваучера: услуга 101, счёт 7011234567');
    expectRussian(result);
  });

  it('pay: a receipt in Russian; the amount sent byte for byte; receipt reprints it from the ledger with the time as a Russian date', async () => {
    const env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир' });
    const paid = await ru(['pay', '--service', '202', '--account', '7011234567', '--amount', '1500.00'], env);
    expect(paid.code).toBe(0);
    expect(paid.stdout).toContain('✓ Платёж прошёл');
    expect(paid.stdout).toMatch(/Сумма\s+1500,00 KZT/);
    expect(paymentsReceived(sandbox).at(-1)?.get('Amount')).toBe('1500.00');
    expectRussian(paid);
    const id = /TransactionID\s+(\d+)/.exec(paid.stdout)?.[1] ?? '';
    const receipt = await ru(['receipt', id, '--width', '32'], env);
    expect(receipt.code).toBe(0);
    expect(receipt.stdout).toMatch(/Время\s+\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d [+-]\d\d:\d\d/);
    expect(receipt.stdout).toContain('Оператор');
    expectRussian(receipt);
  });

  it('pay: a refusal and the desk guard in Russian, the gateway Message as sent; exit codes as in English', async () => {
    const env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир' });
    const refused = await ru(['pay', '--service', '202', '--account', '0000000000', '--amount', '1500.00'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('✗ Платёж отклонён');
    expect(refused.stderr).toContain('шлюз отказал в транзакции');
    expect(refused.stderr).toContain('account 0000000000 is refused by the provider');
    expectRussian(refused);
    const args = ['pay', '--service', '202', '--account', '7011234568', '--amount', '1500.00'];
    // The payment the guard weighs, made in-process (in-process-run.ts); the bin's is the test above.
    expect((await runInProcess(['--lang', 'ru', ...args], env)).code).toBe(0);
    const duplicate = await ru(args, env);
    expect(duplicate.code).toBe(7);
    expect(duplicate.stderr).toContain('отказано как дубль пополнения: такой же платёж недавно прошёл 1 раз');
    expectRussian(duplicate);
  });

  it('errors: an unreachable gateway, a mistyped flag, a bad amount, no gateway set', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const env = envFor(sandbox, { AGENTPAY_BASE_URL: `http://127.0.0.1:${closedPort}` });
    const unreachable = await ru(['pay', '--service', '202', '--account', '7011234567', '--amount', '1500.00'], env);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr).toContain('не удалось связаться со шлюзом');
    expect(unreachable.stderr).toContain('платёж не отправлялся');
    expectRussian(unreachable);
    // The ledger is data: what it recorded stays in English.
    const records = await ledgerRecords(defaultLedger(env));
    expect(records.map((record) => record.kind)).toEqual(['intent', 'outcome']);
    const recorded = JSON.stringify(records);
    expect(recorded).toContain('not sent: cannot reach the gateway at');
    expect(recorded).not.toMatch(/[А-Яа-яЁё]/);
    const typo = await ru(['pay', '--servce', '202']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("ошибка: неизвестный флаг '--servce'");
    expectRussian(typo);
    // A decimal comma is read in Russian (amount-notation.test.ts); an ambiguous one is refused.
    const comma = await ru(['pay', '--service', '202', '--account', '1', '--amount', '1,500']);
    expect(comma.code).toBe(2);
    expect(comma.stderr).toContain('запятая здесь может отделять и тысячи, и дробную часть');
    expectRussian(comma);
    const bare = await runCli(['--lang', 'ru', 'check', '--service', '1', '--account', '2'], {
      env: { PATH: base.PATH ?? '', HOME: base.HOME ?? '' },
    });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('не заданы: шлюз (');
    expectRussian(bare);
  });

  // In-process: language-everywhere.test.ts shows such help is the bin's, byte for byte.
  it('help: the program, check, pay and buy', async () => {
    for (const args of [['--help'], ['check', '--help'], ['pay', '--help'], ['buy', '--help']]) {
      const help = await runInProcess(['--lang', 'ru', ...args], base);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Использование:');
      expectRussian(help);
    }
  });
});

describe('choosing the language', () => {
  it('the locale speaks Russian, even for the cached --help; an explicit English wins over it', async () => {
    const locale = { ...base, LANG: 'ru_RU.UTF-8' };
    expect((await runCli(['--help'], { env: locale })).stdout).toMatch(/^Использование: agentpay/);
    expect((await runCli(['check', '--service', '101', '--account', '7011234567'], { env: locale })).stdout).toContain(
      'Название',
    );
    expect((await runCli(['--help'], { env: { ...locale, AGENTPAY_LANG: 'en' } })).stdout).toMatch(/^Usage: agentpay/);
    const english = await runCli(['--lang', 'en', 'check', '--service', '101', '--account', '7011234567'], {
      env: locale,
    });
    expect(english.stdout).toContain('Name');
  });

  it('--json output is the same whatever the language', async () => {
    const args = ['check', '--service', '101', '--account', '7011234567', '--json'];
    const [inRussian, inEnglish] = await Promise.all([ru(args), runCli(args, { env: base })]);
    const [first] = jsonLines(inRussian.stdout);
    expect(Object.keys(first ?? {})).toEqual(Object.keys(jsonLines(inEnglish.stdout)[0] ?? {}));
    expect(inRussian.stdout).toContain('"499.00"');
    expect(inRussian.stdout).not.toContain('499,00');
    const refused = await ru(['pay', '--service', '202', '--account', '1', '--amount', '1,5', '--json']);
    expect(jsonLines(refused.stderr)[0]).toMatchObject({ error: { exitCode: 2, type: 'InvalidFieldError' } });
    expect(refused.stderr).toContain('uses a comma');
  });

  it('the default stays English without a locale (the tests run without LANG)', async () => {
    const result = await runCli(['--sandbox', 'check', '--service', '101', '--account', '7011234567'], {
      env: { ...base, XDG_STATE_HOME: join(base.HOME ?? '', 'x') },
    });
    expect(result.stdout).toContain('Name');
    expect(result.stderr).toContain('4 vouchers for service 101');
  });

  it('pay --from-file: the plan, the rows, the summary and a bad row in Russian; the results file and --json as in English', async () => {
    const work = mkdtempSync(join(tmpdir(), 'agentpay-bulk-ru-'));
    const env = envFor(sandbox, { AGENTPAY_OPERATOR: 'кассир', AGENTPAY_LEDGER: join(work, 'ledger.sqlite') });
    const orders = join(work, 'orders.csv');
    writeFileSync(
      orders,
      'key,service,account,invoice-id,amount\nА-1,101,7011234567,5002,\nА-2,202,7011234568,,1500.00\n',
    );
    const plan = await ru(['pay', '--from-file', orders, '--dry-run'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('строка 2');
    expect(plan.stderr).toContain('пробный запуск: было бы отправлено 2 платежа');
    expectRussian(plan);
    const paid = await ru(['pay', '--from-file', orders, '--yes'], env);
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toMatch(/строка 3 {2}А-2 {2}успех/);
    expect(paid.stderr).toMatch(/2 строки: 2 успех/);
    expectRussian(paid);
    // The results file is data: its header and states stay as the format defines them.
    expect(readFileSync(join(work, 'orders.results.csv'), 'utf8')).toMatch(/^line,key,.*\r?\n.*success/s);
    const again = await ru(['--json', 'pay', '--from-file', orders, '--yes'], env);
    expect(jsonLines(again.stdout).map((row) => [row.key, row.state, row.skipped])).toEqual([
      ['А-1', 'success', true],
      ['А-2', 'success', true],
    ]);
    const bad = join(work, 'bad.csv');
    writeFileSync(bad, 'service,account,amount\n202,7011234567,1,5\n202,,100\n');
    const refused = await ru(['pay', '--from-file', bad, '--yes'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('2 плохие строки, ничего не отправлялось:\n  строка 2');
    expectRussian(refused);
  });
});
