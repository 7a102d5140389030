import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { configDirectory } from '../platform.js';
import type { CommandNode, CompletionData, OptionNode } from './types.js';

// The answer to a shell's Tab (`agentpay __complete <words...>`) from the definition tree.ts writes, the config
// file and the sandbox's catalogue. Node's built-ins only: the bin runs it alone from dist/completion.cjs,
// without the program (docs/completion.md).

interface Candidate {
  value: string;
  description: string;
}

/** Candidates, or "let the shell complete a file name here". */
type Answer = Candidate[] | 'files';

/** A value placeholder that names a file: `<path>`, `<path|->`, `<pem>`, `<journal>`, `<dir>`, `<file...>`. */
const fileValue = /^[<[](?:[\w-]*\|)*(?:path|file|pem|journal|dir)(?:\|[\w-]*)*(?:\.\.\.)?[>\]]$/;

interface Position {
  /** The command reached, after its ancestors (the program first): their options count too. */
  lineage: CommandNode[];
  given: Map<string, string | true>;
  operands: number;
  awaiting: OptionNode | undefined;
  operandsOnly: boolean;
}

const commandOf = (position: Position) => position.lineage.at(-1)!;

function findOption(lineage: readonly CommandNode[], flag: string): OptionNode | undefined {
  for (const command of [...lineage].reverse()) {
    const option = command.options.find((each) => each.flags.includes(flag));
    if (option !== undefined) return option;
  }
  return undefined;
}

function splitAssignment(word: string): [string, string | undefined] {
  const at = word.indexOf('=');
  return word.startsWith('--') && at !== -1 ? [word.slice(0, at), word.slice(at + 1)] : [word, undefined];
}

/** Walks the words before the cursor as commander parses them. */
function positionAfter(tree: CommandNode, words: readonly string[]): Position {
  const position: Position = {
    lineage: [tree],
    given: new Map(),
    operands: 0,
    awaiting: undefined,
    operandsOnly: false,
  };
  for (const word of words) {
    if (position.awaiting !== undefined) {
      position.given.set(position.awaiting.attribute, word);
      position.awaiting = undefined;
    } else if (position.operandsOnly || !word.startsWith('-') || word === '-') {
      const sub =
        position.operandsOnly || position.operands > 0
          ? undefined
          : commandOf(position).commands.find((each) => each.name === word || each.aliases.includes(word));
      if (sub === undefined) position.operands += 1;
      else position.lineage.push(sub);
    } else if (word === '--') {
      position.operandsOnly = true;
    } else {
      const [flag, value] = splitAssignment(word);
      const option = findOption(position.lineage, flag);
      if (option === undefined) continue;
      if (option.value !== undefined && value === undefined) position.awaiting = option;
      else position.given.set(option.attribute, value ?? true);
    }
  }
  return position;
}

const plain = (values: readonly string[]): Candidate[] => values.map((value) => ({ value, description: '' }));

/** Values an option takes: its choices, else what the config file or the sandbox knows, else files for a path. */
function optionValues(
  option: OptionNode,
  given: Position['given'],
  data: CompletionData,
  env: NodeJS.ProcessEnv,
): Answer {
  if (option.choices !== undefined) return plain(option.choices);
  if (option.flags.includes('--profile')) return plain(Object.keys(readProfiles(env)));
  if (option.flags.includes('--service')) {
    if (given.get('sandbox') === true)
      return data.sandboxServices.map(({ id, name }) => ({ value: id, description: name }));
    return profileServices(env, given);
  }
  return fileValue.test(option.value ?? '') ? 'files' : [];
}

function optionCandidates(position: Position): Candidate[] {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (const command of [...position.lineage].reverse()) {
    for (const option of command.options) {
      const flag = option.flags[0]!;
      if (option.hidden || seen.has(flag)) continue;
      seen.add(flag);
      if (position.given.has(option.attribute) && !option.repeatable) continue;
      candidates.push({ value: flag, description: option.description });
    }
  }
  return candidates;
}

function operandValues(position: Position): Answer {
  const command = commandOf(position);
  if (position.operands === 0 && !position.operandsOnly && command.commands.length > 0) {
    return command.commands.map(({ name, description }) => ({ value: name, description }));
  }
  const declared = command.arguments;
  const last = declared.at(-1);
  const argument = declared[position.operands] ?? (last?.variadic ? last : undefined);
  if (argument === undefined) return [];
  if (argument.choices !== undefined) return plain(argument.choices);
  return fileValue.test(`<${argument.name}>`) ? 'files' : [];
}

function startingWith(answer: Answer, prefix: string, addBefore = ''): Answer {
  if (answer === 'files') return answer;
  return answer
    .filter(({ value }) => value.startsWith(prefix))
    .map((candidate) => ({ ...candidate, value: `${addBefore}${candidate.value}` }));
}

/** What may complete the last of `words` (the words after the program's name; '' after a space). */
function completeWords(data: CompletionData, words: readonly string[], env: NodeJS.ProcessEnv): Answer {
  const current = words.at(-1) ?? '';
  const position = positionAfter(data.tree, words.slice(0, -1));
  if (position.awaiting !== undefined)
    return startingWith(optionValues(position.awaiting, position.given, data, env), current);
  if (!position.operandsOnly && current.startsWith('--') && current.includes('=')) {
    const [flag, value = ''] = splitAssignment(current);
    const option = findOption(position.lineage, flag);
    if (option?.value === undefined) return [];
    return startingWith(optionValues(option, position.given, data, env), value, `${flag}=`);
  }
  if (!position.operandsOnly && current.startsWith('-')) return startingWith(optionCandidates(position), current);
  return startingWith(operandValues(position), current);
}

/** The config file's profiles (where settings/directories.ts's configDirectory puts it), read
 * leniently: one missing or not valid gives no values; the next command says what is wrong. */
function readProfiles(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const file = join(configDirectory(env, process.platform, homedir()), 'config.json');
  try {
    const profiles = (JSON.parse(readFileSync(file, 'utf8')) as { profiles?: unknown }).profiles;
    return isObject(profiles) ? profiles : {};
  } catch {
    return {};
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `services` of the profile the line, AGENTPAY_PROFILE or "default" names, read unchecked. */
function profileServices(env: NodeJS.ProcessEnv, given: Position['given']): Candidate[] {
  const chosen = given.get('profile');
  const name = typeof chosen === 'string' ? chosen : env.AGENTPAY_PROFILE || 'default';
  const profiles = readProfiles(env);
  const profile = Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  const services = isObject(profile) ? profile.services : undefined;
  if (!isObject(services)) return [];
  return Object.entries(services).flatMap(([id, entry]) => {
    const serviceName = isObject(entry) ? (entry.name ?? '') : entry;
    return typeof serviceName === 'string' ? [{ value: id, description: serviceName }] : [];
  });
}

/** Writes the answer: one candidate a line, `value<TAB>description` (the description may be
 * empty), or the one line `:files`. Values never start with ':'. */
export function writeCompletion(
  data: CompletionData,
  words: readonly string[],
  stdout: { write(text: string): unknown },
  env: NodeJS.ProcessEnv,
): void {
  const answer = completeWords(data, words, env);
  if (answer === 'files') stdout.write(':files\n');
  else
    stdout.write(answer.map(({ value, description }) => `${value}\t${description.replace(/[\t\n]/g, ' ')}\n`).join(''));
}

/** bin/agentpay.js's answer from the build's completion.json; false without that file. @public */
export function answerFromBuild(
  dataPath: string,
  argv: readonly string[],
  stdout: NodeJS.WriteStream,
  env: NodeJS.ProcessEnv,
): boolean {
  let data: CompletionData;
  try {
    data = JSON.parse(readFileSync(dataPath, 'utf8')) as CompletionData;
  } catch {
    return false;
  }
  // A shell that stopped reading is not an error worth a stack trace.
  stdout.on('error', () => undefined);
  writeCompletion(data, argv.slice(1), stdout, env);
  return true;
}
