import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { ru } from '../../src/i18n/ru.js';

/** Every command's --help, in each language: each option's default said once, never empty (issue 27). */
describe('the defaults --help shows', () => {
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} };
  const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];
  const languages = [
    { name: 'en', program: buildProgram(io), note: /\(default: /g },
    { name: 'ru', program: buildProgram(io, { t: ru }), note: /\(по умолчанию: /g },
  ];

  for (const { name, program, note } of languages) {
    it(`says each default once and never an empty one (${name})`, () => {
      const problems: string[] = [];
      for (const command of everyCommand(program)) {
        const help = command.helpInformation();
        // An option's help may wrap; its entry runs to the next line that starts an option.
        const entries = help.split(/\n(?= {2}-)/);
        for (const entry of entries) {
          const flat = entry.replace(/\s+/g, ' ');
          if (/\(default: \[\]\)|по умолчанию: \)|default: \)/.test(flat))
            problems.push(`${command.name()}: empty default in ${flat}`);
          if ((flat.match(note) ?? []).length > 1) problems.push(`${command.name()}: default twice in ${flat}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('shows report --by with its one default', () => {
    const report = languages[0]!.program.commands.find((command) => command.name() === 'report')!;
    const help = report.helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain(
      '(default: service,state) (choices: "service", "operator", "approvedBy", "currency", "state") --format',
    );
  });
});
