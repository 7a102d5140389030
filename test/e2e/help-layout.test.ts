import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import { settingEntries } from '../../src/settings/table.js';
import { isolatedEnv, runCli } from '../helpers/cli.js';

/**
 * `agentpay --help` as gh and git lay theirs out: every command first, then the few common
 * options, then examples, in under 50 lines; `agentpay help options` lists every global option
 * the settings table defines. In English and Russian, the same shape.
 */
const commands = [
  ...['check', 'pay', 'buy', 'status', 'reconcile', 'history', 'report', 'receipt'],
  ...['approvals', 'approve', 'decline', 'shift', 'ledger', 'doctor', 'scenario', 'sandbox', 'completion'],
];
/** Every global option's long flag, as the settings table defines it (older names are hidden aliases). */
const globalFlags = settingEntries.flatMap(([, setting]) =>
  'flag' in setting && setting.flag !== undefined ? [/--[\w-]+/.exec(setting.flag)![0]] : [],
);

describe.each([
  ['en', en],
  ['ru', ru],
])('--lang %s', (lang, said) => {
  const run = (args: string[]) => runCli(['--lang', lang, ...args], { env: isolatedEnv() });

  it('--help: every command before any option, a few examples, under 50 lines, and where the rest are', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    const lines = help.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThan(50);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const firstOption = lines.findIndex((line) => /^ {2}-/.test(line));
    expect(firstOption).toBeGreaterThan(0);
    for (const command of commands) {
      const at = lines.findIndex((line) => new RegExp(`^ {2}${command} `).test(line));
      expect(at, command).toBeGreaterThan(0);
      expect(at, command).toBeLessThan(firstOption);
    }
    expect(help.stdout).toContain(said.help.examplesTitle);
    expect(help.stdout).toContain('agentpay --sandbox buy');
    expect(help.stdout).toContain('agentpay help options');
    // The gateway's and the ledger's options are under `help options`, not here.
    expect(help.stdout).not.toContain('--base-url');
    expect(help.stdout).not.toContain('--settle-delay');
  });

  it('help options (and options --help): every global option the settings table defines', async () => {
    expect(globalFlags.length).toBeGreaterThan(20);
    for (const args of [
      ['help', 'options'],
      ['options', '--help'],
    ]) {
      const help = await run(args);
      expect(help.code).toBe(0);
      for (const flag of globalFlags) expect(help.stdout, flag).toMatch(new RegExp(`^ {2}(-\\w, )?${flag}( |$)`, 'm'));
    }
  });

  it("a command's help is as it was: its own options", async () => {
    const help = await run(['help', 'pay']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--invoice-id');
    expect(help.stdout).not.toContain(said.help.examplesTitle);
  });
});
