import type { CommandContext } from './context.js';

/** A command's action: its options as commander parsed them, and the context. */
type CommandRunner = (options: unknown, context: CommandContext) => Promise<void>;

/** Turns a lazily loaded runner into a commander action, so a command's definition loads nothing
 * but commander and its options. cli.ts supplies it: it alone knows the process's streams and
 * builds the context. `positionalName` names the variadic argument. */
export type LazyAction = (
  load: () => Promise<CommandRunner>,
  positionalName?: string,
) => (...args: unknown[]) => Promise<void>;
