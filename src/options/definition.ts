import type { Said } from '../i18n/language.js';

/**
 * An option or argument of a command, defined once: its flags, how commander takes it, and its
 * help in every language (commands/option.ts turns it into commander's). The help is a record
 * over the languages, so an option without its Russian fails the type-check instead of showing
 * English in the middle of a Russian --help. Its parser sits beside it where it is the
 * option's own; parsers shared with scenario steps stay in options/.
 */
export interface OptionDefinition {
  /** Commander's flags: `--currency <code>`, `--yes`. */
  readonly flags: string;
  readonly help: Said;
  /** The only values it takes: commander refuses any other, and --help lists them. */
  readonly choices?: readonly string[];
  /** Each use adds a value: `--var a=1 --var b=2` gives ['a=1', 'b=2'], none gives []. */
  readonly repeatable?: true;
  /** It must be given; `unless`: another option that, given, makes this one not required. */
  readonly required?: true | { readonly unless: OptionDefinition };
}

export interface ArgumentDefinition {
  /** Commander's name and brackets: `<txn-id>`, `[txn-id...]`. */
  readonly name: string;
  readonly help: Said;
  readonly choices?: readonly string[];
}
