import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';

// CSV as a Russian spreadsheet reads it: `--delimiter ';' --decimal-comma` on history and
// report, the same exact amounts in another notation; dates as DD.MM.YYYY.
let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const today = () => {
  const now = new Date();
  return `${String(now.getDate()).padStart(2, '0')}.${String(now.getMonth() + 1).padStart(2, '0')}.${now.getFullYear()}`;
};

describe('CSV out in a spreadsheet notation', () => {
  it('history and report with --delimiter ";" --decimal-comma; --date and --since as DD.MM.YYYY; a wrong date refused', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const env = { ...started.env, AGENTPAY_SETTLE_DELAY: '20' };
    const paid = await runCli(['pay', '--service', '201', '--account', '7011234567', '--amount', '1500.50', '--yes'], {
      env,
    });
    expect(paid.code, paid.stderr).toBe(0);

    const history = await runCli(
      ['history', '--format', 'csv', '--delimiter', ';', '--decimal-comma', '--since', today()],
      { env },
    );
    expect(history.code, history.stderr).toBe(0);
    const [header, row] = history.stdout.split('\r\n');
    expect(header).toContain(';Amount;Currency;');
    expect(row).toContain(';7011234567;1500,50;KZT;');

    const report = await runCli(
      ['report', '--format', 'csv', '--delimiter', ';', '--decimal-comma', '--date', today()],
      { env },
    );
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/;1;1500,50\r?\n/);
    expect(report.stdout).not.toContain('1500.50');

    const plain = await runCli(['report', '--format', 'csv', '--date', today()], { env });
    expect(plain.stdout).toMatch(/,1,1500\.50\r?\n/);

    const wrong = await runCli(['report', '--date', '31.11.2026'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--date "31.11.2026" is not a day');
    const stray = await runCli(['history', '--delimiter', ';'], { env });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--delimiter goes with --format csv');
  });
});
