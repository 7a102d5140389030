import { Argument, type Command, Option } from 'commander';
import type { Language } from '../i18n/language.js';
import type { ArgumentDefinition, OptionDefinition, OptionDefinitions } from '../options/definition.js';
import { collect } from '../options/repeatable.js';
import { requireOption } from './define.js';

/**
 * Commander's options and arguments from their definitions (options/definition.ts), with
 * their help in the language the program speaks.
 */

/** The note after a required option's help: `(required)`, `(required without --from-file)`. */
const requiredNote: Record<Language, (unless: readonly string[]) => string> = {
  en: (unless) => (unless.length === 0 ? '(required)' : `(required without ${unless.join(' or ')})`),
  ru: (unless) => (unless.length === 0 ? '(обязательно)' : `(обязательно без ${unless.join(' или ')})`),
};

/** The options that, given, make a required one not required. */
function unlessOptions(definition: OptionDefinition): Option[] {
  const { required } = definition;
  if (typeof required !== 'object') return [];
  const unless = Array.isArray(required.unless) ? required.unless : [required.unless as OptionDefinition];
  return unless.map((other) => new Option(other.flags));
}

function optionOf(definition: OptionDefinition, language: Language): Option {
  const unless = unlessOptions(definition).map((other) => other.long ?? other.flags);
  const note = definition.required === undefined ? '' : ` ${requiredNote[language](unless)}`;
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
    if (definition.required !== undefined)
      requireOption(
        command,
        option,
        unlessOptions(definition).map((other) => other.attributeName()),
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
