import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { envFor, sandboxWithEnv } from '../helpers/gateway-env.js';

/**
 * history's When and report's day and range are written as the receipt writes its time, from
 * the one definition (the catalogue's localTime), in local time: `02.12.2026 12:18:00` in
 * Russian. The desk's zone is nine hours from UTC here, so a UTC time cannot pass for it.
 */
let sandbox: RunningSandbox;
let env: Record<string, string>;
let paid = '';
beforeAll(async () => {
  ({ sandbox } = await sandboxWithEnv());
  env = envFor(sandbox, { TZ: 'Asia/Tokyo' });
  const result = await runCli(['pay', '--service', '201', '--account', '7011234567', '--amount', '1500.00', '--json'], {
    env,
  });
  paid = /"transactionId":"(\d+)"/i.exec(result.stdout)?.[1] ?? '';
});
afterAll(() => sandbox.close());

/** The receipt's time of the payment: its day, and its day and time without the offset. */
async function receiptTime(lang: string): Promise<{ day: string; time: string }> {
  const receipt = await runCli(['--lang', lang, 'receipt', paid], { env });
  const [, time = '', day = ''] = /(?:Время|Time)\s+((\S+) \d\d:\d\d:\d\d) \+09:00/.exec(receipt.stdout) ?? [];
  expect(time, receipt.stdout).not.toBe('');
  return { day, time };
}

describe('dates in history and report as the receipt writes them', () => {
  it('Russian: history, report --date and report --since say the day as 02.12.2026, in local time', async () => {
    const { day, time } = await receiptTime('ru');
    expect(day).toMatch(/^\d\d\.\d\d\.\d{4}$/);
    const history = await runCli(['--lang', 'ru', 'history'], { env });
    expect(history.stdout).toContain(`| ${time} | ${paid} |`);
    const today = await runCli(['--lang', 'ru', 'report', '--date', 'today'], { env });
    expect(today.stderr).toContain(`платежи за ${day} (местные сутки)`);
    const since = await runCli(['--lang', 'ru', 'report', '--since', '1d'], { env });
    expect(since.stderr).toMatch(
      /платежи за время с \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d \+09:00 до \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d \+09:00/,
    );
  });

  it('English: history shows the local time the receipt shows, not UTC', async () => {
    const { time } = await receiptTime('en');
    expect(time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const history = await runCli(['history'], { env });
    expect(history.stdout).toContain(`| ${time} | ${paid} |`);
  });
});
