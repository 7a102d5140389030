import type { Command, Option } from 'commander';
import type { CommandContext } from './context.js';

/**
 * What a command's definition (`commands/<name>/command.ts`) is built with. A definition
 * loads nothing but commander: its action's module is imported only when the command runs,
 * so `--help` and `--version` stay fast.
 */

/** A command's action: its options as commander parsed them, and the context. */
type CommandRunner = (options: unknown, context: CommandContext) => Promise<void>;

/**
 * Turns a lazily loaded runner into a commander action. cli.ts supplies it: it alone knows
 * the process's streams and builds the context. `positionalName` names the variadic argument.
 */
export type LazyAction = (
  load: () => Promise<CommandRunner>,
  positionalName?: string,
) => (...args: unknown[]) => Promise<void>;

/**
 * Required options are checked in a preAction hook, not by commander's requiredOption:
 * commander checks those before unknown options, so `pay --servce 101` would say "--service
 * not specified" instead of suggesting the typo's fix. The hook runs after that check.
 */
const requiredOptions = new WeakMap<Command, { option: Option; unless: readonly string[] }[]>();

/** `unless`: the attribute names of other options that, any of them given, make this one not required. */
export function requireOption(command: Command, option: Option, unless: readonly string[]): void {
  requiredOptions.set(command, [...(requiredOptions.get(command) ?? []), { option, unless }]);
}

/** The program's preAction hook: the first required option the command ran without is a usage error. */
export function checkRequiredOptions(_program: Command, action: Command): void {
  for (const { option, unless } of requiredOptions.get(action) ?? []) {
    if (unless.some((other) => action.getOptionValue(other) !== undefined)) continue;
    if (action.getOptionValue(option.attributeName()) === undefined) {
      action.error(`error: required option '${option.flags}' not specified`, {
        code: 'commander.missingMandatoryOptionValue',
        exitCode: 2,
      });
    }
  }
}
