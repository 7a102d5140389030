import type { Said } from '../i18n/language.js';
import { optionalText, optionRecord, switchOption, textListOption } from './values.js';

/** A value as a source gives it: text from a flag or the environment, a switch's true, a
 * repeatable option's list, or what the config file holds (settings/config-file.ts checks it). */
export type RawValue = string | number | boolean | readonly (string | number)[] | Readonly<Record<string, unknown>>;

/** What a config file may hold for a profile key (settings/config-file.ts checks it). */
export type FileShape =
  | 'text'
  | 'text or number'
  | 'code list'
  | 'true or false'
  | 'amounts per currency'
  | 'services by id'
  | readonly string[];

/** One option, defined once, whether a global setting or a command's own. Commander's option and
 * its --help in each language (options/commander.ts), the value's reading, and for a setting its
 * resolution, doctor's row, the config file's keys and the docs' table all come from it. */
export interface OptionDefinition {
  /** Commander's flags: `--currency <code>`, `--yes`; none for a setting never given as a flag. */
  readonly flag?: string;
  /** One line for --help in every language: a missing translation fails the type-check. */
  readonly help: Said;
  /** The values it takes (commander refuses others unless `repeatable` or `open`). */
  readonly choices?: readonly string[];
  /** With `choices`: another value is taken too, such as a file's path. */
  readonly open?: true;
  /** Each use adds a value: `--var a=1 --var b=2` gives ['a=1', 'b=2'], none gives []. */
  readonly repeatable?: true;
  /** It must be given (commander's own check); `unless`: options that, any given, lift that. */
  readonly required?: true | { readonly unless: readonly OptionDefinition[] };
  /** The value used, from what a source gave (undefined: not given); errors name `where`. */
  parse?(raw: RawValue | undefined, where: string): unknown;
  /** Environment variables, the first set and not empty wins (lower-case proxy names first, as curl). */
  readonly env?: readonly string[];
  /** The key of a profile in the config file, and what the file may hold there. */
  readonly profile?: { readonly key: string; readonly shape: FileShape };
  /** An older name still taken when the new one is not given: a hidden flag and a profile key. */
  readonly alias?: { readonly flag: string; readonly profileKey: string };
  /** The value when no source gives one, worked out when first read. */
  readonly fallback?: (env: NodeJS.ProcessEnv) => unknown;
  /** The default as the docs and --help say it (markdown). */
  readonly defaultText?: string;
  /** Never shown: doctor prints *** and where it is read from (settings/password.ts). */
  readonly secret?: boolean;
  /** Under --sandbox: the sandbox supplies it, or its code table replaces env and profile. */
  readonly underSandbox?: 'embedded' | 'code table';
  /** The key in doctor's report when not the option's name; false: not shown. */
  readonly report?: string | false;
  /** The docs table's description, when it says more than --help. */
  readonly docs?: string;
  /** The docs table's environment column, when other code reads those variables. */
  readonly docsEnv?: string;
}

/** Options by commander's attribute name (`--txn-id` is `txnId`), in --help's order. */
export type OptionDefinitions = Readonly<Record<string, OptionDefinition>>;

export interface ArgumentDefinition {
  /** Commander's name and brackets: `<txn-id>`, `[txn-id...]`. */
  readonly name: string;
  readonly help: Said;
  readonly choices?: readonly string[];
}

/** A flag without a value (`--yes`): true or false, never from env or profile. */
export const isSwitch = (definition: OptionDefinition): boolean =>
  definition.flag !== undefined && !/[<[]/.test(definition.flag);

/** `--txn-id <digits>` -> `--txn-id`: the flag a message names. */
export function longFlag(definition: OptionDefinition): string | undefined {
  return definition.flag === undefined ? undefined : /--[\w-]+/.exec(definition.flag)?.[0];
}

type ValueOf<D extends OptionDefinition> = D extends { parse(raw: never, where: string): infer T }
  ? T
  : D extends { repeatable: true }
    ? string[]
    : D extends { choices: readonly (infer C)[]; open?: never }
      ? C | undefined
      : D['flag'] extends `${string}<${string}`
        ? string | undefined
        : boolean;

/** What parseOptions gives for the definitions: each option's value by its name. */
export type OptionValues<D extends OptionDefinitions> = { -readonly [K in keyof D]: ValueOf<D[K]> };

/** The command's options as commander gave them, each read by its definition: the options struct. */
export function parseOptions<D extends OptionDefinitions>(raw: unknown, definitions: D): OptionValues<D> {
  const given = optionRecord(raw);
  const values: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    const value = given[name] as RawValue | undefined;
    const flag = longFlag(definition) ?? name;
    if (definition.parse !== undefined) values[name] = definition.parse(value, 'flag');
    else if (definition.repeatable) values[name] = textListOption(value, flag);
    else values[name] = isSwitch(definition) ? switchOption(value, flag) : optionalText(value, flag);
  }
  return values as OptionValues<D>;
}
