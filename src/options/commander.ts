import { Argument, type Command, Option } from 'commander';
import type { Language } from '../i18n/language.js';
import {
  type ArgumentDefinition,
  isSwitch,
  longFlag,
  type OptionDefinition,
  type OptionDefinitions,
} from './definition.js';
import { collect } from './repeatable.js';

/** The note after a required option's help: `(required)`, `(required without --from-file)`. */
const requiredNote: Record<Language, (unless: readonly string[]) => string> = {
  en: (unless) => (unless.length === 0 ? '(required)' : `(required without ${unless.join(' or ')})`),
  ru: (unless) => (unless.length === 0 ? '(обязательно)' : `(обязательно без ${unless.join(' или ')})`),
};

/** A setting's note: where else it comes from, and a default that is a plain value. */
const settingNote: Record<Language, (env: string, defaultText: string) => string[]> = {
  en: (env, defaultText) => {
    // The docs' markdown as plain text: a lone word is quoted ("default"), code marks go.
    const plain = defaultText.replace(/^`([a-z]+)`$/, '"$1"').replaceAll('`', '');
    return [...(env === '' ? [] : [`env ${env}`]), ...(plain === 'none' ? [] : [`default ${plain}`])];
  },
  ru: (env, defaultText) => {
    const plain = /^`([^`]+)`$/.exec(defaultText)?.[1];
    return [...(env === '' ? [] : [`переменная ${env}`]), ...(plain === undefined ? [] : [`по умолчанию ${plain}`])];
  },
};

const unlessFlags = (definition: OptionDefinition): string[] =>
  typeof definition.required === 'object' ? definition.required.unless.map((other) => longFlag(other) ?? '') : [];

/** The --help line in `language`: the definition's help, then what it says of the option's sources. */
function helpLine(definition: OptionDefinition, language: Language): string {
  const help = definition.help[language];
  if (definition.required !== undefined) return `${help} ${requiredNote[language](unlessFlags(definition))}`;
  if (isSwitch(definition) || definition.defaultText === undefined) return help;
  const notes = settingNote[language]((definition.env ?? []).join(', '), definition.defaultText);
  return notes.length === 0 ? help : `${help} (${notes.join('; ')})`;
}

function optionOf(flag: string, definition: OptionDefinition, language: Language): Option {
  const option = new Option(flag, helpLine(definition, language));
  if (definition.choices !== undefined) option.choices(definition.choices);
  // A parser after choices() takes its place: the choices stay listed, not enforced.
  if (definition.repeatable) option.argParser(collect);
  else if (definition.open) option.argParser(String);
  return option.makeOptionMandatory(definition.required === true);
}

/** Commander has no "required unless": a hook of the command's own, after commander's check of
 * unknown options, refuses a run without the option and without any option that lifts it. */
function requireUnless(command: Command, option: Option, unless: readonly OptionDefinition[]): void {
  const lifting = unless.map((other) => new Option(other.flag ?? '').attributeName());
  command.hook('preAction', (_command, action) => {
    if (lifting.some((name) => action.getOptionValue(name) !== undefined)) return;
    if (action.getOptionValue(option.attributeName()) !== undefined) return;
    // Commander's own words for a missing mandatory option, so both read alike.
    action.error(`error: required option '${option.flags}' not specified`, {
      code: 'commander.missingMandatoryOptionValue',
    });
  });
}

/** Adds the options, in order, with their help in `language`. Each is named by commander's
 * attribute name, under which its value is read: another name is a mistake, said on first run. */
export function addOptions(command: Command, language: Language, definitions: OptionDefinitions): Command {
  for (const [name, definition] of Object.entries(definitions)) {
    if (definition.flag === undefined) continue;
    const option = optionOf(definition.flag, definition, language);
    if (option.attributeName() !== name)
      throw new Error(
        `${command.name()}: the option ${definition.flag} is defined as ${name}, not ${option.attributeName()}`,
      );
    command.addOption(option);
    if (typeof definition.required === 'object') requireUnless(command, option, definition.required.unless);
    if (definition.alias !== undefined)
      command.addOption(new Option(definition.alias.flag, `older name of ${definition.flag}`).hideHelp());
  }
  return command;
}

/** Adds the argument with its help in `language`. */
export function addArgument(command: Command, language: Language, definition: ArgumentDefinition): Command {
  const argument = new Argument(definition.name, definition.help[language]);
  return command.addArgument(definition.choices === undefined ? argument : argument.choices(definition.choices));
}
