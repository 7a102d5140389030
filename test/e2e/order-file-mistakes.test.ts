import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeBulkSandbox, folder, ordersFile, setUp } from '../helpers/bulk-orders.js';
import { jsonLines, runCli } from '../helpers/cli.js';

/**
 * The mistakes a person makes with a --from-file, said as what they are: a file that is not
 * there in words (its errno code after them, for scripts), a typo in an order file's header
 * as the unknown column with the one it most likely meant. Nothing is sent for either.
 */
afterEach(closeBulkSandbox);

describe('a --from-file that cannot be read', () => {
  it('pay: "no such file (ENOENT)", in English, in Russian and under --json; nothing sent', async () => {
    const { sandbox, env } = await setUp();
    const missing = join(folder(), 'nosuch.csv');
    const pay = ['pay', '--from-file', missing, '--yes'];
    const english = await runCli(pay, { env });
    expect(english.code).toBe(2);
    expect(english.stderr).toBe(`agentpay: cannot read --from-file ${missing}: no such file (ENOENT)\n`);
    const russian = await runCli(['--lang', 'ru', ...pay], { env });
    expect(russian.stderr).toBe(`agentpay: не удаётся прочитать --from-file ${missing}: нет такого файла (ENOENT)\n`);
    const json = await runCli(['--json', ...pay], { env });
    expect(jsonLines(json.stderr)).toEqual([
      {
        error: {
          exitCode: 2,
          type: 'UsageError',
          message: `cannot read --from-file ${missing}: no such file (ENOENT)`,
        },
      },
    ]);
    expect(sandbox.received).toHaveLength(0);
  });

  it('status: a missing file and a directory in words, exit 2 (a directory was an internal error)', async () => {
    const { sandbox, env } = await setUp();
    const directory = folder();
    const missing = await runCli(['status', '--from-file', join(directory, 'ids.txt')], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read --from-file ${join(directory, 'ids.txt')}: no such file (ENOENT)`);
    const notAFile = await runCli(['status', '--from-file', directory], { env });
    expect(notAFile.code).toBe(2);
    expect(notAFile.stderr).toBe(`agentpay: cannot read --from-file ${directory}: it is a directory (EISDIR)\n`);
    expect(sandbox.received).toHaveLength(0);
  });
});

describe('a typo in an order file', () => {
  const rows = ['201,p-1,10.00', '201,p-2,10.00', '201,p-3,10.00'];

  it('in the header: the unknown column named with the one it meant, not "3 bad rows"; en and ru', async () => {
    const { sandbox, env } = await setUp();
    const orders = ordersFile(['service,acount,amount', ...rows]);
    const english = await runCli(['pay', '--from-file', orders, '--yes'], { env });
    expect(english.code).toBe(2);
    expect(english.stderr).toBe(
      `agentpay: ${orders}: unknown column "acount": did you mean "account"?; nothing was sent\n` +
        '  the columns of an order are service, account, currency, invoice-id, invoice, amount, key: ' +
        'fix the header and run the same command again\n',
    );
    const russian = await runCli(['--lang', 'ru', 'pay', '--from-file', orders, '--yes'], { env });
    expect(russian.code).toBe(2);
    expect(russian.stderr).toContain(
      `agentpay: ${orders}: неизвестный столбец «acount»: может быть, «account»?; ничего не отправлялось\n`,
    );
    expect(sandbox.received).toHaveLength(0);
  });

  it('several unknown columns each named, a suggestion only where one is likely', async () => {
    const { env } = await setUp();
    const orders = ordersFile(['service,account,amout,colour', '201,p-1,10.00,red']);
    const result = await runCli(['--json', 'pay', '--from-file', orders, '--yes'], { env });
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)[0]).toMatchObject({
      error: {
        message: `${orders}: unknown column "amout": did you mean "amount"?; unknown column "colour"; nothing was sent`,
      },
    });
  });

  it('in a JSON Lines field: the suggestion in its line', async () => {
    const { env } = await setUp();
    const orders = ordersFile(['{"service":"201","acount":"p-1","amount":"10.00"}'], 'orders.jsonl');
    const result = await runCli(['pay', '--from-file', orders, '--yes', '--results', `${orders}.results.csv`], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 1, acount: is not a field of an order: did you mean "account"? (fields: ');
  });
});
