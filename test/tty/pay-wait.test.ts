import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { runCli } from '../helpers/cli.js';
import { paymentsReceived } from '../helpers/gateway-env.js';
import { skipWithout } from '../helpers/system-tools.js';
import { terminalDesk } from '../helpers/terminal-desk.js';

/** Skipped, named, without tmux outside CI; failed under CI=true (system-tools.ts). */
const skipped = skipWithout('tmux');

/**
 * `pay` waiting on Status at a terminal (tmux): a spinner says which look-up it waits on and
 * moves while it waits, as buy's does; off a terminal only the notes are written.
 */
const desk = terminalDesk();
const { terminals } = desk;

/** A sandbox that answers "in progress" to the Payment and its first two look-ups, with short waits between them. */
async function pendingSandbox(): Promise<{ sandbox: RunningSandbox; env: Record<string, string> }> {
  const started = await desk.sandbox({ behaviour: { pendingPolls: 2 } });
  return { ...started, env: { ...started.env, AGENTPAY_SETTLE_DELAY: '400', AGENTPAY_SETTLE_ATTEMPTS: '4' } };
}

const pay = ['pay', '--service', '201', '--account', '7011234567', '--amount', '150.00'];
const spinnerLine = /^(\S) Waiting for the gateway's word on payment (\d+)(?: \(Status (\d) of 4\))?…$/m;

describe.skipIf(skipped)('pay waiting on Status at a terminal', () => {
  it('draws a spinner whose frame changes while it waits, then the receipt; one Payment', async () => {
    const { sandbox, env } = await pendingSandbox();
    const screen = await terminals.run(pay, env);
    const frames = new Set<string>();
    const deadline = Date.now() + 15_000;
    while (frames.size < 2 && Date.now() < deadline) {
      const match = spinnerLine.exec(await screen.screen());
      if (match) frames.add(match[1]!);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect([...frames].length).toBeGreaterThanOrEqual(2);
    const last = await screen.waitFor(/^EXIT=\d+$/m);
    expect(await terminals.finish(screen)).toBe(0);
    const id = paymentsReceived(sandbox)[0]?.get('TransactionID');
    expect(paymentsReceived(sandbox)).toHaveLength(1);
    expect(last).toMatch(new RegExp(`^payment ${id} is not final yet \\(in progress`, 'm'));
    // The spinner is gone once the gateway has said its word: no line is left of it.
    expect(last).not.toMatch(spinnerLine);
  });
});

describe.skipIf(skipped)('pay --json waiting on Status at a terminal', () => {
  it('draws no spinner: stdout carries JSON lines, stderr its notes as JSON', async () => {
    const { env } = await pendingSandbox();
    const screen = await terminals.run(['--json', ...pay], env);
    // Every screen while it waits, not only the last (a spinner is wiped when it stops).
    const screens: string[] = [];
    while (!/^EXIT=\d+$/m.test(screens.at(-1) ?? '')) {
      screens.push(await screen.screen());
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    expect(await terminals.finish(screen)).toBe(0);
    expect(screens.length).toBeGreaterThan(10);
    expect(screens.at(-1)).toContain('"note":');
    for (const shown of screens) expect(shown).not.toContain("Waiting for the gateway's word");
  });
});

describe('pay waiting on Status off a terminal', () => {
  it('writes the notes and no spinner (no escapes, no frames)', async () => {
    const { env } = await pendingSandbox();
    const result = await runCli(pay, { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('is not final yet (in progress');
    expect(result.stderr).not.toContain("Waiting for the gateway's word");
    expect(result.stderr).not.toContain('\x1b[');
  });
});
