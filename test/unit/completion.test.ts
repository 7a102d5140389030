import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { type CompletionAnswer, completeWords, type ValueSource } from '../../src/completion/engine.js';

/** The real program's definition, as `agentpay __complete` builds it. */
const program = buildProgram({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} });

/** Service ids only under --sandbox, as completion/values.ts gives them; nothing else. */
const services: ValueSource = (option, given) =>
  option.long === '--service' ? (given.get('sandbox') === true ? [{ value: '101', description: 'GameCoins top-up' }] : []) : undefined;

const values = (answer: CompletionAnswer) => (answer.files ? ':files' : answer.candidates.map((candidate) => candidate.value));
const complete = (line: string) => values(completeWords(program, line.split(' '), services));

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

describe('completion from the program definition', () => {
  it('offers the commands --help lists, completion among them, help too', () => {
    const listed = program
      .createHelp()
      .visibleCommands(program)
      .map((command) => command.name());
    expect(complete('')).toEqual(listed);
    expect(listed).toContain('completion');
    expect(complete('re')).toEqual(['reconcile', 'report', 'receipt']);
    expect(complete('ledger ')).toEqual(['migrate', 'import', 'compact', 'export', 'help']);
  });

  it('offers options by prefix, with the global ones after a command, never a hidden one or one given already', () => {
    expect(complete('check --acc')).toEqual(['--account', '--account-daily-limit']);
    // --journal is the hidden older name of --ledger.
    expect(complete('--jo')).toEqual([]);
    expect(complete('--j')).toEqual(['--json']);
    expect(complete('--json history --j')).toEqual([]);
    // --var is repeatable (it collects), --bail is not.
    expect(complete('scenario --var a=1 --bail --')).toContain('--var');
    expect(complete('scenario --var a=1 --bail --')).not.toContain('--bail');
  });

  it("offers every option's and argument's choices as commander holds them, in both spellings", () => {
    for (const command of everyCommand(program)) {
      for (const option of command.options.filter((each) => each.argChoices !== undefined && !each.hidden)) {
        const path = everyCommand(program)
          .filter((each) => each !== program && everyCommand(each).includes(command))
          .map((each) => each.name());
        expect(complete([...path, option.long, ''].join(' '))).toEqual(option.argChoices);
        expect(complete([...path, `${option.long}=`].join(' '))).toEqual(option.argChoices!.map((choice) => `${option.long}=${choice}`));
      }
    }
    expect(complete('--password-format ')).toEqual(['plain', 'md5']);
    expect(complete('history --state p')).toEqual(['pending']);
    expect(complete('report --format=c')).toEqual(['--format=csv']);
    expect(complete('completion ')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('leaves file names to the shell where a value or an argument is a path', () => {
    expect(complete('status --from-file ')).toBe(':files');
    expect(complete('--ledger ')).toBe(':files');
    expect(complete('scenario ')).toBe(':files');
    expect(complete('scenario a.yaml ')).toBe(':files');
    expect(complete('ledger import ')).toBe(':files');
    expect(complete('sandbox --state ')).toBe(':files');
  });

  it('asks the value source for what no definition holds, with the options given before', () => {
    expect(complete('--sandbox check --service ')).toEqual(['101']);
    expect(complete('check --sandbox --service 1')).toEqual(['101']);
    expect(complete('check --service ')).toEqual([]);
    // A value that is no option's: nothing to offer, and no file names.
    expect(complete('check --account ')).toEqual([]);
    expect(complete('status ')).toEqual([]);
  });

  it('takes words after -- as arguments, and an option value as a value, not a command', () => {
    expect(complete('scenario -- --b')).toBe(':files');
    expect(complete('--profile check ')).toEqual(complete(''));
  });
});
