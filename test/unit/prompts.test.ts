import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CancelledError } from '../../src/errors.js';
import { type Prompter, terminalPrompter } from '../../src/prompts.js';

/**
 * The enquirer-backed Prompter, driven by key bytes written to an in-memory "terminal"
 * (enquirer reads only streams that say they are one). What is drawn is checked too.
 */
const keys = { down: '\x1b[B', enter: '\r', ctrlC: '\x03', esc: '\x1b' };

function fakeTerminal(color = false): { prompter: Prompter; press(...input: string[]): void; drawn(): string } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
  let drawn = '';
  const stderr = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        drawn += chunk.toString('utf8');
        callback();
      },
    }),
    { columns: 80, rows: 24 },
  );
  const prompter = terminalPrompter({
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    color,
  });
  return {
    prompter,
    // Each key in its own tick, as a person types.
    press: (...input) => {
      void input.reduce(
        (previous, key) =>
          previous.then(() => new Promise<void>((resolve) => setTimeout(() => (stdin.write(key), resolve()), 10))),
        Promise.resolve(),
      );
    },
    drawn: () => drawn,
  };
}

const choices = [
  { value: '0', label: '#1  100 GameCoins   499.00 KZT' },
  { value: '1', label: '#2  550 GameCoins  2497.00 KZT' },
  { value: '2', label: '#3  (bonus) pack   4990.50 KZT' },
];

describe('terminalPrompter', () => {
  it('select: arrow down and Enter pick the second choice, shown by its label once answered', async () => {
    const terminal = fakeTerminal();
    const answer = terminal.prompter.select({ message: 'Voucher', choices });
    terminal.press(keys.down, keys.enter);
    expect(await answer).toBe('1');
    expect(terminal.drawn()).toContain('Voucher · #2  550 GameCoins  2497.00 KZT');
  });

  it.each([
    ['Ctrl+C', keys.ctrlC],
    ['Esc', keys.esc],
  ])('%s at a select, an input or a confirm is a CancelledError (exit 130)', async (_name, key) => {
    const terminal = fakeTerminal();
    for (const ask of [
      () => terminal.prompter.select({ message: 'Voucher', choices }),
      () => terminal.prompter.input({ message: 'Account' }),
      () => terminal.prompter.confirm({ message: 'Pay?' }),
    ]) {
      const answer = ask();
      terminal.press(key);
      const error = await answer.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(CancelledError);
      expect((error as CancelledError).exitCode).toBe(130);
    }
  });

  it('confirm: Enter alone is No, y is yes at once', async () => {
    const terminal = fakeTerminal();
    const enter = terminal.prompter.confirm({ message: 'Pay?' });
    terminal.press(keys.enter);
    expect(await enter).toBe(false);
    const yes = terminal.prompter.confirm({ message: 'Pay?' });
    terminal.press('y');
    expect(await yes).toBe(true);
    // Not "false" next to the question while it waits: the answer shows once given.
    expect(terminal.drawn()).not.toContain('false');
    expect(terminal.drawn()).toContain('Pay? (y/N) · yes');
  });

  it('input: Enter takes the default; a bad answer is refused with its message until fixed', async () => {
    const terminal = fakeTerminal();
    const byDefault = terminal.prompter.input({ message: 'Currency', initial: 'KZT' });
    terminal.press(keys.enter);
    expect(await byDefault).toBe('KZT');
    const typed = terminal.prompter.input({
      message: 'Amount',
      validate: (v) => (/^\d+\.\d\d$/.test(v) ? undefined : 'two decimals, please'),
    });
    terminal.press('1', '2', keys.enter, '.', '5', '0', keys.enter);
    expect(await typed).toBe('12.50');
    expect(terminal.drawn()).toContain('two decimals, please');
  });

  it('filter: typing narrows the list (even characters a RegExp would choke on), the focused one marked without colour', async () => {
    const terminal = fakeTerminal();
    const answer = terminal.prompter.select({ message: 'Voucher', choices, filter: true });
    terminal.press('(', 'b', keys.enter);
    expect(await answer).toBe('2');
    expect(terminal.drawn()).toMatch(/▸ #3 {2}\(bonus\) pack/);
  });

  it('draws no colour when told not to, and colour when told to', async () => {
    for (const color of [false, true]) {
      const terminal = fakeTerminal(color);
      const answer = terminal.prompter.select({ message: 'Voucher', choices });
      terminal.press(keys.enter);
      await answer;
      // SGR colour codes such as ESC[36m; cursor movement codes do not count.
      expect(/\x1b\[3\dm/.test(terminal.drawn())).toBe(color);
    }
  });
});
