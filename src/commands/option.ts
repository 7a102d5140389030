import { Argument, type Command, Option } from 'commander';
import type { Language } from '../i18n/language.js';
import type { ArgumentDefinition, OptionDefinition, OptionDefinitions } from '../options/definition.js';
import { requireOption } from './define.js';

/**
 * Commander's options and arguments from their definitions (options/definition.ts), with
 * their help in the language the program speaks.
 */

/** The note after a required option's help: `(required)`, `(required without --from-file)`. */
const requiredNote: Record<Language, (unless: string | undefined) => string> = {
  en: (unless) => (unless === undefined ? '(required)' : `(required without ${unless})`),
  ru: (unless) => (unless === undefined ? '(обязательно)' : `(обязательно без ${unless})`),
};

/**
 * A repeatable option's parser: each use adds its value. No default list is set, so --help
 * shows no `(default: [])`; parseOptions reads "not given" as the empty list.
 */
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Whether each use of the option adds a value (completion offers it again). */
export const isRepeatable = (option: Option): boolean => option.variadic || option.parseArg === collect;

function optionOf(definition: OptionDefinition, language: Language): Option {
  const { required } = definition;
  const unless = typeof required === 'object' ? new Option(required.unless.flags) : undefined;
  const note = required === undefined ? '' : ` ${requiredNote[language](unless?.long)}`;
  const option = new Option(definition.flags, `${definition.help[language]}${note}`);
  if (definition.choices !== undefined) option.choices(definition.choices);
  // A parser after choices() takes its place: the choices stay listed, not enforced.
  if (definition.repeatable) option.argParser(collect);
  else if (definition.open) option.argParser(String);
  return option;
}

/**
 * Adds the options, in order, with their help in `language`. Each is named by commander's
 * attribute name, under which parseOptions reads its value: a name that is not it is a mistake
 * in the definition, and says so on the first run.
 */
export function addOptions(command: Command, language: Language, definitions: OptionDefinitions): Command {
  for (const [name, definition] of Object.entries(definitions)) {
    const option = optionOf(definition, language);
    if (option.attributeName() !== name)
      throw new Error(
        `${command.name()}: the option ${definition.flags} is defined as ${name}, not ${option.attributeName()}`,
      );
    const { required } = definition;
    if (required !== undefined)
      requireOption(
        command,
        option,
        typeof required === 'object' ? new Option(required.unless.flags).attributeName() : undefined,
      );
    command.addOption(option);
  }
  return command;
}

/** Adds the argument with its help in `language`. */
export function addArgument(command: Command, language: Language, definition: ArgumentDefinition): Command {
  const argument = new Argument(definition.name, definition.help[language]);
  return command.addArgument(definition.choices === undefined ? argument : argument.choices(definition.choices));
}
