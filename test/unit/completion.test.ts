import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { writeCompletion } from '../../src/completion/answer.js';
import { completionData } from '../../src/completion/tree.js';
import { readConfigFile } from '../../src/settings/config-file.js';

/** The real program's definition, as `agentpay __complete` reads it. */
const program = buildProgram({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: {} });
const data = completionData(program);

/** A config file: the default profile carries services. */
const configHome = mkdtempSync(join(tmpdir(), 'agentpay-completion-'));
mkdirSync(join(configHome, 'agentpay'));
writeFileSync(
  join(configHome, 'agentpay', 'config.json'),
  JSON.stringify({
    profiles: {
      default: {
        services: { '301': 'Water bill', '601': { name: 'Cinema voucher', kind: 'static', amounts: ['1500.00'] } },
      },
      night: {},
    },
  }),
);

/** The values offered for a command line ('|' for the cursor: the line's end), or ':files'. */
function answer(line: string, env: NodeJS.ProcessEnv = { XDG_CONFIG_HOME: configHome }): string[] {
  let text = '';
  writeCompletion(data, line.split(' '), { write: (chunk: string) => (text += chunk) }, env);
  return text.split('\n').filter((each) => each !== '');
}
const complete = (line: string, env?: NodeJS.ProcessEnv) => {
  const lines = answer(line, env);
  return lines[0] === ':files' ? ':files' : lines.map((each) => each.split('\t')[0]);
};

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
    expect(complete('ledger ')).toEqual([
      'migrate',
      'import',
      'export',
      'add-operator',
      'operators',
      'policy',
      'remove-operator',
      'help',
    ]);
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
        expect(complete([...path, `${option.long}=`].join(' '))).toEqual(
          option.argChoices!.map((choice) => `${option.long}=${choice}`),
        );
      }
    }
    expect(complete('--password-format ')).toEqual(['plain', 'md5']);
    expect(complete('history --state p')).toEqual(['pending']);
    expect(complete('report --format=c')).toEqual(['--format=csv']);
    expect(complete('completion ')).toEqual(['bash', 'zsh', 'fish']);
    // Fixed-choice options commander cannot enforce alone: a list, or a name or a file (issue 27).
    expect(complete('report --by ')).toEqual(['service', 'operator', 'approvedBy', 'currency', 'state']);
    expect(complete('report --by service --by o')).toEqual(['operator']);
    expect(complete('reconcile --registry-format ')).toEqual(['tsv', 'csv']);
    expect(complete('reconcile --format ')).toEqual(['table', 'csv', 'json']);
    expect(complete('pay --from-format ')).toEqual(['csv', 'jsonl']);
    expect(complete('sandbox --break ')).toEqual(['idempotency', 'amount-check', 'echo']);
    // A spreadsheet's notation: a delimiter, and the encodings a desk meets (any other label is taken).
    expect(complete('history --format csv --delimiter ')).toEqual([',', ';', 'tab']);
    expect(complete('pay --from-file orders.csv --encoding w')).toEqual(['windows-1251']);
  });

  it('lists the choices without refusing a comma list or a mapping file, which the command reads', () => {
    const optionOf = (name: string, flag: string) =>
      program.commands.find((command) => command.name() === name)!.options.find((option) => option.long === flag)!;
    expect(optionOf('report', '--by').parseArg!('service,state', undefined)).toEqual(['service,state']);
    expect(optionOf('reconcile', '--registry-format').parseArg!('kassa-mapping.yaml', undefined)).toBe(
      'kassa-mapping.yaml',
    );
    expect(optionOf('pay', '--encoding').parseArg!('cp1251', undefined)).toBe('cp1251');
    expect(optionOf('pay', '--delimiter').parseArg!('\t', undefined)).toBe('\t');
    expect(() => optionOf('reconcile', '--format').parseArg!('xml', undefined)).toThrow(/Allowed choices/);
  });

  it('leaves file names to the shell where a value or an argument is a path', () => {
    expect(complete('status --from-file ')).toBe(':files');
    expect(complete('--ledger ')).toBe(':files');
    expect(complete('scenario ')).toBe(':files');
    expect(complete('scenario a.yaml ')).toBe(':files');
    expect(complete('ledger import ')).toBe(':files');
    expect(complete('sandbox --state ')).toBe(':files');
    for (const command of ['reconcile', 'report', 'pay --from-file o.csv'])
      expect(complete(`${command} --metrics-file `), command).toBe(':files');
    expect(complete('reconcile --metrics-job ')).toEqual([]);
    // A directory of recordings: the shell's file names, which take it into directories.
    expect(complete('--record ')).toBe(':files');
    expect(complete('--replay ')).toBe(':files');
    expect(complete('sandbox --replay ')).toBe(':files');
  });

  it("offers profile names from the config file, and service ids: the sandbox's under --sandbox, else the profile's", () => {
    expect(complete('--profile ')).toEqual(['default', 'night']);
    expect(answer('--sandbox check --service ')[0]).toBe('101\tGameCoins top-up');
    expect(complete('check --sandbox --service 20')).toEqual(['201', '202']);
    expect(answer('check --service ')).toEqual(['301\tWater bill', '601\tCinema voucher']);
    expect(complete('--profile night check --service ')).toEqual([]);
    expect(complete('check --service ', { XDG_CONFIG_HOME: configHome, AGENTPAY_PROFILE: 'night' })).toEqual([]);
    // No config file, or one that is not JSON: no values, and no error.
    expect(complete('--profile ', { XDG_CONFIG_HOME: join(configHome, 'none') })).toEqual([]);
    // A value that is no option's: nothing to offer, and no file names.
    expect(complete('check --account ')).toEqual([]);
    expect(complete('status ')).toEqual([]);
  });

  it('takes words after -- as arguments, and an option value as a value, not a command', () => {
    expect(complete('scenario -- --b')).toBe(':files');
    expect(complete('--profile check ')).toEqual(complete(''));
    expect(complete('--profile=night ')).toEqual(complete(''));
  });
});

describe("a profile's services", () => {
  it('are services by id, checked by the config file reader as every key is', () => {
    const file = join(configHome, 'services.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: { services: { '101': 'GameCoins top-up' } } } }));
    expect(readConfigFile(file)?.file.profiles.default?.services).toEqual({ '101': 'GameCoins top-up' });
    writeFileSync(file, JSON.stringify({ profiles: { default: { services: { '101': 5 } } } }));
    expect(() => readConfigFile(file)).toThrow(
      'profiles.default.services: expected services by id, as {"101": "GameCoins top-up"} or {"601": {"name": "Cinema voucher", "kind": "static"}}, got an object',
    );
  });
});
