import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { skipWithout } from '../helpers/system-tools.js';
import { liveProfileEnv, terminalDesk } from '../helpers/terminal-desk.js';
import type { TerminalSession } from '../helpers/tmux.js';

/** Skipped, named, without tmux outside CI; failed under CI=true (system-tools.ts). */
const skipped = skipWithout('tmux');

/**
 * Ctrl+C or Esc at a question about paying (buy's "Pay … now?", pay's y/N through a live
 * profile) says plainly that nothing was paid, in the person's language, and exits 130 with
 * no Payment sent. What counts: the last line on the screen, the exit code, the sandbox.
 */
const desk = terminalDesk();
const { terminals } = desk;

async function sandbox(): Promise<{ gateway: RunningSandbox; env: Record<string, string> }> {
  const { sandbox: gateway, env } = await desk.sandbox();
  return { gateway, env };
}

const lastLines = (screen: string) =>
  screen
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^EXIT=|^Pane is dead/.test(line))
    .slice(-1)[0];

const said = {
  en: { buy: 'now?', pay: '(y/N)', nothingPaid: 'agentpay: cancelled: nothing was paid' },
  ru: { buy: 'сейчас?', pay: '(y/N)', nothingPaid: 'agentpay: отменено: ничего не оплачено' },
} as const;

async function stopAt(screen: TerminalSession, question: string, key: string): Promise<string> {
  await screen.waitFor(question);
  await screen.press(key);
  return screen.waitFor(/^EXIT=\d+$/m);
}

describe.skipIf(skipped)('a cancel at a question about paying says nothing was paid', () => {
  const cases = [
    { key: 'C-c', lang: 'en' as const },
    { key: 'Escape', lang: 'en' as const },
    { key: 'C-c', lang: 'ru' as const },
  ];

  it.each(cases)('buy: $key at the confirmation ($lang): exit 130, no Payment', async ({ key, lang }) => {
    const { gateway, env } = await sandbox();
    const args = ['buy', '--service', '101', '--account', '7011234567', '--currency', 'KZT', '--lang', lang];
    const screen = await terminals.run(args, env);
    await screen.waitFor('?');
    await screen.waitFor(lang === 'en' ? '? Voucher' : '? Ваучер');
    await screen.press('Down', 'Enter');
    const last = await stopAt(screen, said[lang].buy, key);
    expect(await terminals.finish(screen)).toBe(130);
    expect(lastLines(last)).toBe(said[lang].nothingPaid);
    expect(paymentsReceived(gateway)).toHaveLength(0);
  });

  it.each(cases)('pay through a live profile: $key at y/N ($lang): exit 130, no Payment', async ({ key, lang }) => {
    const { gateway } = await sandbox();
    const env = liveProfileEnv(gateway, { AGENTPAY_LANG: lang });
    const screen = await terminals.run(
      ['pay', '--service', '201', '--account', '7011234567', '--amount', '150.00'],
      env,
    );
    const last = await stopAt(screen, said[lang].pay, key);
    expect(await terminals.finish(screen)).toBe(130);
    expect(lastLines(last)).toBe(said[lang].nothingPaid);
    expect(paymentsReceived(gateway)).toHaveLength(0);
  });
});
