import type { Command, Option } from 'commander';
import { isRepeatable } from '../options/repeatable.js';
import { sandboxServices } from '../sandbox/catalogue.js';
import type { CommandNode, CompletionData, OptionNode } from './types.js';

/** Commander's definition as answer.ts reads it: what `--help` shows, hidden options too (taken,
 * never offered), placeholders and choices. The build writes it to dist/completion.json. */

/** A description on one short line: the help text up to its first aside. */
function shortDescription(text: string): string {
  return text.split(/ \(|; /)[0]!.trim();
}

function optionNode(option: Option, hidden: boolean): OptionNode {
  const placeholder = /[<[][^>\]]*[>\]]/.exec(option.flags)?.[0];
  return {
    flags: [option.long, option.short].filter((flag): flag is string => flag !== undefined),
    attribute: option.attributeName(),
    ...(option.required || option.optional ? { value: placeholder ?? '<value>' } : {}),
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
    repeatable: isRepeatable(option),
    hidden,
    description: shortDescription(option.description),
  };
}

function commandNode(command: Command): CommandNode {
  const help = command.createHelp();
  const visible = help.visibleOptions(command);
  const hidden = command.options.filter((option) => !visible.includes(option));
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: shortDescription(command.description()),
    options: [
      ...visible.map((option) => optionNode(option, false)),
      ...hidden.map((option) => optionNode(option, true)),
    ],
    arguments: command.registeredArguments.map((argument) => ({
      name: argument.name(),
      variadic: argument.variadic,
      ...(argument.argChoices ? { choices: [...argument.argChoices] } : {}),
    })),
    // With the `help` command commander adds: `agentpay help <command>`.
    commands: help.visibleCommands(command).map(commandNode),
  };
}

export function completionData(program: Command): CompletionData {
  return { tree: commandNode(program), sandboxServices: sandboxServices.map(({ id, name }) => ({ id, name })) };
}
