import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';

/**
 * Start-up builds only the commands a command line needs (commands-needed.ts): the one it
 * names, none for the version alone, every one for help, a typo, or a line it is unsure of.
 * Building too few would break a command; these lines pin which are built.
 */
describe('the commands a command line needs built', () => {
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };
  const built = (...argv: string[]) => buildProgram(io, { argv }).commands.map((command) => command.name());
  const every = built();

  it('builds every command without a command line, and without a named command', () => {
    expect(every).toContain('check');
    expect(every).toContain('completion');
    for (const argv of [[], ['--help'], ['-h'], ['help', 'pay'], ['chek'], ['--lang', 'ru'], ['--version', '--help']]) {
      expect(built(...argv), argv.join(' ')).toEqual(every);
    }
  });

  it('builds the named command alone, after global options and their values', () => {
    expect(built('check', '--service', '101')).toEqual(['check']);
    expect(built('--json', '--profile', 'status', 'pay', '--help')).toEqual(['pay']);
    expect(built('--base-url=http://127.0.0.1:1', '-v', 'ledger', 'migrate')).toEqual(['ledger']);
    expect(built('--lang', 'ru', 'completion', 'bash')).toEqual(['completion']);
  });

  it('builds none for the version alone, and every one when unsure of a flag', () => {
    expect(built('--version')).toEqual([]);
    expect(built('--lang', 'ru', '-V')).toEqual([]);
    expect(built('-vV')).toEqual(every);
    expect(built('--no-such-flag', 'check')).toEqual(every);
    expect(built('--', 'check')).toEqual(every);
  });
});
