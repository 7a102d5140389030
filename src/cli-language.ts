import type { Argument, Command, Help, Option } from 'commander';
import type { Catalogue } from './i18n/en.js';
import { settingsTable } from './settings/table.js';

/**
 * The program's help in the chosen language: commander 14 says "Usage:", "Options:" and its
 * own option texts in English; this puts the catalogue's words in their place, and the global
 * options' help in the language (the settings table says it in each). The commands' own help needs nothing here: each command's
 * definition says it in every language and is built in the chosen one. English needs
 * nothing at all.
 */

/** A global option's help line in the catalogue's words: what it does, its variable, a default that is a plain value. */
function globalOptionHelp(option: Option, t: Catalogue): string | undefined {
  // --no-color is the setting `color`: commander's attribute name, not the flag's.
  const name = option.attributeName() as keyof typeof settingsTable;
  const setting = settingsTable[name] as (typeof settingsTable)[keyof typeof settingsTable] | undefined;
  if (setting === undefined) return undefined;
  const help = setting.help[t.locale];
  if ('switch' in setting) return help;
  const plainDefault = /^`([^`]+)`$/.exec(setting.defaultText)?.[1];
  const parts = [
    ...('env' in setting ? [`${t.help.env} ${setting.env.join(', ')}`] : []),
    ...(plainDefault === undefined ? [] : [`${t.help.default} ${plainDefault}`]),
  ];
  return parts.length === 0 ? help : `${help} (${parts.join('; ')})`;
}

/** A command's own words come from its definition, built in the chosen language; commander's are put in here. */
function localiseCommand(command: Command, t: Catalogue): void {
  const commandTerm = `[${t.help.argumentNames.command ?? 'command'}]`;
  let usage = command.usage().replace('[options]', t.help.optionsTerm).replace('[command]', commandTerm);
  for (const argument of command.registeredArguments) {
    const asCommanderSaysIt = `${argument.name()}${argument.variadic ? '...' : ''}`;
    usage = usage.replace(
      argument.required ? `<${asCommanderSaysIt}>` : `[${asCommanderSaysIt}]`,
      argumentTerm(argument, t),
    );
  }
  // A usage written out by its command (`report [--date <day> | …]`) names flags' values too.
  command.usage(valueTerms(usage, t));
  command.helpOption('-h, --help', t.help.help);
  // A command with subcommands (ledger) has commander's own `help [command]` among them.
  if (command.commands.length > 0 && command.parent !== null)
    command.helpCommand(`help ${commandTerm}`, t.help.helpCommand);
  command.configureHelp(helpConfiguration(t));
  for (const sub of command.commands) localiseCommand(sub, t);
}

/** `<txn-id>`, `[txn-id...]`: an argument as the usage shows it, named in the catalogue's words where it has them. */
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

/** Commander's own words: section titles and the "(choices: …, default: …)" of an option. */
function helpConfiguration(t: Catalogue): Partial<Help> {
  return {
    styleTitle: (title: string) => t.help.titles[title] ?? title,
    // `check [options]` in the list of commands: commander's word for the options, in the catalogue's.
    subcommandTerm: (command: Command) =>
      [
        command.name(),
        ...(command.options.length > 0 ? [t.help.optionsTerm] : []),
        ...command.registeredArguments.map((argument) => argumentTerm(argument, t)),
      ].join(' '),
    // An argument in the list of arguments, by its name in the catalogue's words.
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

/** Puts the catalogue's words into the program's help; the program as built when `t` is English. */
export function localiseProgram(program: Command, t: Catalogue): void {
  if (t.locale === 'en') return;
  for (const option of program.options as Option[]) {
    if (option.long === '--version') option.description = t.help.version;
    else if (option.hidden) continue;
    else option.description = globalOptionHelp(option, t) ?? option.description;
  }
  program.helpCommand(`help [${t.help.argumentNames.command ?? 'command'}]`, t.help.helpCommand);
  localiseCommand(program, t);
}
