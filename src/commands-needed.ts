import type { Command, Option } from 'commander';

/**
 * Which of the program's commands a command line needs built: building every command's options
 * and help is most of what start-up does, and a line runs one command at most.
 * - `{ only: name }`: the line names that command (after global options and their values);
 * - `{ none: true }`: it asks for the version alone (commander prints it while reading the
 *   program's options, before any command is looked at);
 * - `{ all: true }`: anything else — the program's help lists every command, a typo is matched
 *   against their names, and a line this reading is unsure of is parsed by commander in full.
 * `program` holds the global options only; `names` are the commands it can build.
 */
export type CommandsNeeded = { only: string } | { none: true } | { all: true };

export function commandsNeeded(program: Command, argv: readonly string[], names: readonly string[]): CommandsNeeded {
  const options = program.options as readonly Option[];
  const helpAsked = argv.some((arg) => arg === '-h' || arg === '--help');
  let versionAsked = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') {
      return names.includes(arg) ? { only: arg } : { all: true };
    }
    const flag = arg.startsWith('--') ? (arg.split('=')[0] as string) : arg;
    if (flag === '-V' || flag === '--version') {
      versionAsked = true;
      continue;
    }
    const option = options.find((candidate) => candidate.long === flag || candidate.short === flag);
    // An unknown flag, or short flags run together: commander reads them (and says what is wrong).
    if (option === undefined) return { all: true };
    if (option.required && !arg.includes('=')) index++;
    else if (option.optional) return { all: true };
  }
  return versionAsked && !helpAsked ? { none: true } : { all: true };
}
