import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * --amount in the language's notation (docs/commands.md "Amounts"): in Russian a decimal comma
 * reaches the gateway as the plain decimal meant, byte for byte; an ambiguous amount is refused,
 * the reason in Russian, and nothing is sent. The rules' cases are unit tests (amount-notation.test.ts).
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
});
afterAll(() => sandbox.close());

const pay = ['pay', '--service', '201', '--account', '7011234567', '--yes'];

describe('--amount with a decimal comma', () => {
  it('--lang ru: 1500,50 reaches the sandbox as 1500.50', async () => {
    const result = await runCli(['--lang', 'ru', ...pay, '--amount', '1500,50'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Сумма\s+1500,50 KZT/);
    const [payment, ...more] = paymentsReceived(sandbox);
    expect(more).toHaveLength(0);
    expect(payment?.get('Amount')).toBe('1500.50');
  });

  it('--lang ru: 1,500 and 1.500,00 are refused with the reason in Russian; nothing sent', async () => {
    const before = sandbox.received.length;
    const ambiguous = await runCli(['--lang', 'ru', ...pay, '--amount', '1,500'], { env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      '--amount "1,500": запятая здесь может отделять и тысячи, и дробную часть; напишите 1500 или 1.500',
    );
    const both = await runCli(['--lang', 'ru', ...pay, '--amount', '1.500,00'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--amount "1.500,00": в сумме и точка, и запятая');
    expect(sandbox.received.length).toBe(before);
  });

  it('--lang ru --json: the notation of a script is English, whatever the language; nothing sent', async () => {
    const before = sandbox.received.length;
    const result = await runCli(['--lang', 'ru', ...pay, '--amount', '1500,50', '--json'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('uses a comma: use a dot, as in 1500.50');
    expect(sandbox.received.length).toBe(before);
  });

  it('English: 1,50 is refused as before, 1,500 named as a possible thousands comma', async () => {
    const before = sandbox.received.length;
    const comma = await runCli([...pay, '--amount', '1,50'], { env });
    expect(comma.code).toBe(2);
    expect(comma.stderr).toContain('--amount "1,50" uses a comma: use a dot, as in 1.50');
    const thousands = await runCli([...pay, '--amount', '1,500'], { env });
    expect(thousands.code).toBe(2);
    expect(thousands.stderr).toContain(
      '--amount "1,500" could be a thousands comma or a decimal one: write 1500 or 1.500',
    );
    expect(sandbox.received.length).toBe(before);
  });
});
