import type { Said } from '../i18n/language.js';
import { optionalText, optionRecord, switchOption, textListOption } from './values.js';

/**
 * An option or argument of a command, defined once: its flags, how commander takes it, its
 * help in every language (commands/option.ts turns it into commander's), and how its value is
 * read (parseOptions). The help is a record over the languages, so an option without its
 * Russian fails the type-check instead of showing English in the middle of a Russian --help.
 */
export interface OptionDefinition {
  /** Commander's flags: `--currency <code>`, `--yes`. */
  readonly flags: string;
  readonly help: Said;
  /**
   * The fixed values it takes: --help lists them and completion offers them. Commander refuses
   * any other, except for a repeatable option (a use may list several: its parse checks them)
   * or one that is `open`.
   */
  readonly choices?: readonly string[];
  /** With `choices`: another value is taken too, such as a file's path, and parse reads it. */
  readonly open?: true;
  /** Each use adds a value: `--var a=1 --var b=2` gives ['a=1', 'b=2'], none gives []. */
  readonly repeatable?: true;
  /** It must be given; `unless`: another option that, given, makes this one not required. */
  readonly required?: true | { readonly unless: OptionDefinition | readonly OptionDefinition[] };
  /**
   * The value the command gets from what commander gave (undefined when not given): checked,
   * its default filled in. Without it: the text as given, a switch's true or false, a
   * repeatable option's list.
   */
  readonly parse?: (raw: unknown) => unknown;
}

/** A command's options by commander's attribute name (`--txn-id` is `txnId`), in --help's order. */
export type OptionDefinitions = Readonly<Record<string, OptionDefinition>>;

export interface ArgumentDefinition {
  /** Commander's name and brackets: `<txn-id>`, `[txn-id...]`. */
  readonly name: string;
  readonly help: Said;
  readonly choices?: readonly string[];
}

type ValueOf<D extends OptionDefinition> = D extends { parse: (raw: unknown) => infer T }
  ? T
  : D extends { repeatable: true }
    ? string[]
    : D['flags'] extends `${string}<${string}`
      ? string | undefined
      : boolean;

/** What parseOptions gives for the definitions: each option's value by its name. */
export type OptionValues<D extends OptionDefinitions> = { -readonly [K in keyof D]: ValueOf<D[K]> };

/** `--txn-id <digits>` -> `--txn-id`: the flag a message names. */
function longFlag(flags: string): string {
  return flags.split(/[\s,]+/).find((part) => part.startsWith('--')) ?? flags;
}

/** The command's options as commander gave them, each read by its definition. */
export function parseOptions<D extends OptionDefinitions>(raw: unknown, definitions: D): OptionValues<D> {
  const given = optionRecord(raw);
  const values: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const value = given[name];
    const flag = longFlag(definition.flags);
    if (definition.parse !== undefined) values[name] = definition.parse(value);
    else if (definition.repeatable) values[name] = textListOption(value, flag);
    else values[name] = definition.flags.includes('<') ? optionalText(value, flag) : switchOption(value, flag);
  }
  return values as OptionValues<D>;
}
