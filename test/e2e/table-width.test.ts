import { afterAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/render/text-width.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { shownLongVoucherName, startLongNamesGateway } from '../helpers/long-names-gateway.js';
import type { SpecServer } from '../helpers/spec-server.js';

/**
 * Tables fit the width they are given (the terminal's; COLUMNS off a terminal; every column
 * whole without either), and a long word the gateway wrote wraps in its cell, never cut:
 * `check` against a gateway whose voucher names are long, `history` of a sandbox's payments.
 */
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

async function longNamesGateway(): Promise<SpecServer> {
  const server = await startLongNamesGateway();
  closers.push(() => server.close());
  return server;
}

const widest = (text: string) => Math.max(...text.trimEnd().split('\n').map(displayWidth));
/** The name column's text put back together: the cells between the second and third borders, lines joined. */
const nameColumn = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|')[3]!.trim())
    .join('')
    .replaceAll(' ', '');

describe('check: long voucher names', () => {
  it.each(['80', '60'])(
    'COLUMNS=%s: every line fits, the name wraps whole: no ellipsis, the escape whole',
    async (width) => {
      const server = await longNamesGateway();
      const env = isolatedEnv({
        AGENTPAY_BASE_URL: server.baseUrl,
        AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
        AGENTPAY_PASSWORD: sandboxCredentials.password,
        COLUMNS: width,
      });
      const result = await runCli(['check', '--service', '101', '--account', 'player-42'], { env });
      expect(result.code).toBe(0);
      expect(widest(result.stdout)).toBeLessThanOrEqual(Number(width));
      expect(result.stdout).not.toContain('…');
      expect(nameColumn(result.stdout)).toContain(shownLongVoucherName.replaceAll(' ', ''));
      expect(result.stdout).toContain('12500.50');
    },
  );
});

describe('history: the width of the table', () => {
  let sandbox: RunningSandbox | undefined;
  afterAll(() => sandbox?.close());

  it('COLUMNS=60 fits 60 and names the columns left out; without COLUMNS off a terminal every column', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const { env } = started;
    for (const account of ['7011234567', 'player-with-a-long-account-name@example.kz']) {
      const paid = await runCli(['pay', '--service', '201', '--account', account, '--amount', '150.00'], { env });
      expect(paid.code).toBe(0);
    }
    const narrow = await runCli(['history'], { env: { ...env, COLUMNS: '60' } });
    expect(narrow.code).toBe(0);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
    expect(narrow.stderr).toContain('not shown for want of width: ');
    expect(narrow.stderr).toContain('RequestID');
    const whole = await runCli(['history'], { env });
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain('player-with-a-long-account-name@example.kz');
    expect(whole.stdout.split('\n')[1]).toContain('RequestID');
    expect(whole.stderr).not.toContain('for want of width');
  });
});
