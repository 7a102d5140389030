import type { Argument, Command, Help, Option } from 'commander';
import type { Catalogue } from './i18n/en.js';

/** Commander's own words (Usage:, Options:, [options], its help option) in the chosen language,
 * set on the program before its commands are added: each command copies them. The options'
 * words come from their definitions, built in that language (options/commander.ts). */

/** `<txn-id>`, `[txn-id...]`: an argument as the usage shows it, in the catalogue's words where it has them. */
function argumentTerm(argument: Argument, t: Catalogue): string {
  const name = t.help.argumentNames[argument.name()] ?? argument.name();
  const text = `${name}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${text}>` : `[${text}]`;
}

/** `--from-file <path>`: each value's words (`<…>`) in the catalogue's, the flag as typed. */
const valueTerms = (text: string, t: Catalogue) =>
  text.replace(
    /<([^>]+)>/g,
    (_, value: string) => `<${value.replace(/[\w-]+/g, (word) => t.help.valueNames[word] ?? word)}>`,
  );

/** A command's usage line in the catalogue's words; English is commander's own. */
export function usageIn(command: Command, t: Catalogue): string {
  if (t.locale === 'en') return command.usage();
  const commandTerm = `[${t.help.argumentNames.command ?? 'command'}]`;
  let usage = command.usage().replace('[options]', t.help.optionsTerm).replace('[command]', commandTerm);
  for (const argument of command.registeredArguments) {
    const asCommanderSaysIt = `${argument.name()}${argument.variadic ? '...' : ''}`;
    usage = usage.replace(
      argument.required ? `<${asCommanderSaysIt}>` : `[${asCommanderSaysIt}]`,
      argumentTerm(argument, t),
    );
  }
  return valueTerms(usage, t);
}

/** Commander's help words: section titles, usage, and the "(choices: …, default: …)" of an option. */
function helpConfiguration(t: Catalogue): Partial<Help> {
  return {
    styleTitle: (title: string) => t.help.titles[title] ?? title,
    commandUsage(command: Command) {
      const ancestors: string[] = [];
      for (let parent = command.parent; parent; parent = parent.parent) ancestors.unshift(parent.name());
      return [...ancestors, command.name(), usageIn(command, t)].join(' ');
    },
    // `check [options]` in the list of commands: commander's word for the options, in the catalogue's.
    subcommandTerm: (command: Command) =>
      [
        command.name(),
        ...(command.options.length > 0 ? [t.help.optionsTerm] : []),
        ...command.registeredArguments.map((argument) => argumentTerm(argument, t)),
      ].join(' '),
    argumentTerm: (argument: Argument) => t.help.argumentNames[argument.name()] ?? argument.name(),
    argumentDescription(argument: Argument) {
      const choices = argument.argChoices ? ` (${t.help.choices}: ${argument.argChoices.join(', ')})` : '';
      return `${argument.description}${choices}`;
    },
    optionTerm: (option: Option) => valueTerms(option.flags, t),
    optionDescription(option: Option) {
      const extra = [
        ...(option.argChoices ? [`${t.help.choices}: ${option.argChoices.map(t.help.choice).join(', ')}`] : []),
        ...(option.defaultValue !== undefined && !option.negate && !option.isBoolean()
          ? [`${t.help.default}: ${String(option.defaultValue)}`]
          : []),
      ];
      return extra.length === 0 ? option.description : `${option.description} (${extra.join(', ')})`;
    },
  };
}

/** The program speaks `t`'s language in its help: before the commands are added, which copy it. */
export function speakInHelp(program: Command, t: Catalogue): Command {
  if (t.locale === 'en') return program;
  return program
    .helpOption('-h, --help', t.help.help)
    .helpCommand(`help [${t.help.argumentNames.command ?? 'command'}]`, t.help.helpCommand)
    .configureHelp(helpConfiguration(t));
}
