import type { Command, Option } from 'commander';

/**
 * What Tab may put at the cursor, worked out from commander's own definition of the program:
 * its commands, subcommands, options (hidden ones left out) and their `choices`. Nothing here
 * lists a command or a value a second time, so completion cannot fall behind the program.
 * Values no definition holds (profile names, service ids) come from a `ValueSource`.
 */
export interface Candidate {
  value: string;
  /** One line for zsh and fish, which show it beside the value; bash drops it. */
  description: string;
}

/** Candidates, or "let the shell complete a file name here" (a value named `<path>`, `<file>`, ...). */
export type CompletionAnswer = { files: true } | { files: false; candidates: Candidate[] };

/** The options given before the cursor, by commander's attribute name (`sandbox`, `profile`). */
export type GivenOptions = ReadonlyMap<string, string | true>;

/** Values for an option that has no `choices`: undefined when it knows none. */
export type ValueSource = (option: Option, given: GivenOptions) => Candidate[] | undefined;

/** Where the words before the cursor leave us. */
interface Position {
  command: Command;
  given: Map<string, string | true>;
  /** Arguments (not options) given to `command` so far. */
  operands: number;
  /** An option whose value is the word at the cursor. */
  awaiting: Option | undefined;
  /** After `--`: only arguments follow. */
  operandsOnly: boolean;
}

/** A value placeholder that names a file: `<path>`, `<path|->`, `<pem>`, `<journal>`, `<file...>`. */
const fileValue = /^[<[](?:[\w-]*\|)*(?:path|file|pem|journal)(?:\|[\w-]*)*(?:\.\.\.)?[>\]]$/;

/** The command and its ancestors: the program's options are taken after a command too. */
function lineage(command: Command): Command[] {
  const commands: Command[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) commands.push(current);
  return commands;
}

function findOption(command: Command, flag: string): Option | undefined {
  for (const each of lineage(command)) {
    const option = each.options.find((candidate) => candidate.long === flag || candidate.short === flag);
    if (option !== undefined) return option;
  }
  return undefined;
}

function findSubcommand(command: Command, name: string): Command | undefined {
  return command.commands.find((sub) => sub.name() === name || sub.aliases().includes(name));
}

/** Walks the words before the cursor as commander would parse them. */
function positionAfter(program: Command, words: readonly string[]): Position {
  const position: Position = { command: program, given: new Map(), operands: 0, awaiting: undefined, operandsOnly: false };
  for (const word of words) {
    if (position.awaiting !== undefined) {
      position.given.set(position.awaiting.attributeName(), word);
      position.awaiting = undefined;
    } else if (position.operandsOnly || !word.startsWith('-') || word === '-') {
      const sub = position.operandsOnly || position.operands > 0 ? undefined : findSubcommand(position.command, word);
      if (sub === undefined) position.operands += 1;
      else position.command = sub;
    } else if (word === '--') {
      position.operandsOnly = true;
    } else {
      const [flag = word, value] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word];
      const option = findOption(position.command, flag);
      if (option === undefined) continue;
      const takesValue = option.required || option.optional;
      if (takesValue && value === undefined) position.awaiting = option;
      else position.given.set(option.attributeName(), value ?? true);
    }
  }
  return position;
}

/** A description on one short line: the help text up to its first aside. */
function shortDescription(text: string): string {
  return text.split(/ \(|; /)[0]!.trim();
}

function choicesOf(choices: readonly string[] | undefined): Candidate[] | undefined {
  return choices?.map((value) => ({ value, description: '' }));
}

function optionValues(option: Option, given: GivenOptions, source: ValueSource): CompletionAnswer {
  const candidates = choicesOf(option.argChoices) ?? source(option, given);
  if (candidates !== undefined) return { files: false, candidates };
  const placeholder = /[<[][^>\]]*[>\]]/.exec(option.flags)?.[0] ?? '';
  return fileValue.test(placeholder) ? { files: true } : { files: false, candidates: [] };
}

/** The options Tab offers at `command`: its own and its ancestors', not hidden, not given already (unless repeatable). */
function optionCandidates(position: Position): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const command of lineage(position.command)) {
    for (const option of command.createHelp().visibleOptions(command)) {
      const flag = option.long ?? option.short;
      if (flag === undefined || seen.has(flag)) continue;
      seen.add(flag);
      const repeatable = Array.isArray(option.defaultValue) || option.variadic;
      if (position.given.has(option.attributeName()) && !repeatable) continue;
      candidates.push({ value: flag, description: shortDescription(option.description) });
    }
  }
  return candidates;
}

function operandCandidates(position: Position): CompletionAnswer {
  const { command } = position;
  if (position.operands === 0 && !position.operandsOnly && command.commands.length > 0) {
    const help = command.createHelp();
    return { files: false, candidates: help.visibleCommands(command).map((sub) => ({ value: sub.name(), description: shortDescription(sub.description()) })) };
  }
  const declared = command.registeredArguments;
  const argument = declared[position.operands] ?? (declared.at(-1)?.variadic ? declared.at(-1) : undefined);
  if (argument === undefined) return { files: false, candidates: [] };
  const choices = choicesOf(argument.argChoices);
  if (choices !== undefined) return { files: false, candidates: choices };
  return fileValue.test(`<${argument.name()}>`) ? { files: true } : { files: false, candidates: [] };
}

const startingWith = (answer: CompletionAnswer, prefix: string, addBefore = ''): CompletionAnswer =>
  answer.files
    ? answer
    : {
        files: false,
        candidates: answer.candidates.filter(({ value }) => value.startsWith(prefix)).map((candidate) => ({ ...candidate, value: `${addBefore}${candidate.value}` })),
      };

/**
 * What may complete the last of `words`, the words after the program's name up to the cursor
 * (the last one is the word being typed, '' after a space).
 */
export function completeWords(program: Command, words: readonly string[], source: ValueSource): CompletionAnswer {
  const current = words.at(-1) ?? '';
  const position = positionAfter(program, words.slice(0, -1));
  if (position.awaiting !== undefined) return startingWith(optionValues(position.awaiting, position.given, source), current);
  if (!position.operandsOnly && current.startsWith('--') && current.includes('=')) {
    const flag = current.slice(0, current.indexOf('='));
    const option = findOption(position.command, flag);
    if (option === undefined || !(option.required || option.optional)) return { files: false, candidates: [] };
    return startingWith(optionValues(option, position.given, source), current.slice(flag.length + 1), `${flag}=`);
  }
  if (!position.operandsOnly && current.startsWith('-')) return startingWith({ files: false, candidates: optionCandidates(position) }, current);
  return startingWith(operandCandidates(position), current);
}
