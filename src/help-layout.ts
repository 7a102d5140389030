import { Command, type Help, type Option } from 'commander';
import type { Catalogue } from './i18n/en.js';

/** The program's help laid out as gh's and git's: the commands, the few options a person reaches
 * for, examples; every global option under `agentpay help options` (a hidden command, so that
 * `agentpay options --help` says the same). This file only chooses where each option is shown. */

/** The global options the main help shows, by their long flag; the rest are under `help options`. */
const commonOptions = ['--sandbox', '--profile', '--json', '--lang', '--verbose', '--help'];

/** The examples under the main help: a command line and what it does (a comment, in the catalogue's words). */
const exampleLines = (t: Catalogue) => [
  ['agentpay --sandbox buy', t.help.examples.buy],
  ['agentpay --sandbox check --service 101 --account 7011234567', t.help.examples.check],
  ['agentpay pay --service 201 --account 7011234567 --amount 150.00', t.help.examples.pay],
  ['agentpay status 1795289214527958198', t.help.examples.status],
  ['agentpay help pay', t.help.examples.help],
];

/** `title`, then its items as commander lays them out (term padded to `termWidth`, description wrapped). */
function section(title: string, items: readonly [string, string][], termWidth: number, helper: Help): string[] {
  if (items.length === 0) return [];
  return [
    helper.styleTitle(title),
    ...items.map(([term, description]) => helper.formatItem(term, termWidth, description, helper)),
    '',
  ];
}

const optionItem = (option: Option, helper: Help): [string, string] => [
  helper.styleOptionTerm(helper.optionTerm(option)),
  helper.styleOptionDescription(helper.optionDescription(option)),
];

/** The main help: usage, what agentpay does, the commands by name, the common options, examples, where the rest are. */
function mainHelp(t: Catalogue) {
  return (program: Command, helper: Help): string => {
    const commands = helper
      .visibleCommands(program)
      .map((command): [string, string] => [
        command.name(),
        t.help.summaries[command.name()] ?? helper.subcommandDescription(command),
      ]);
    const options = helper.visibleOptions(program).filter((option) => commonOptions.includes(option.long ?? ''));
    const optionItems = options.map((option) => optionItem(option, helper));
    const width = (items: readonly [string, string][]) => Math.max(...items.map(([term]) => helper.displayWidth(term)));
    return [
      `${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(program))}`,
      '',
      helper.boxWrap(helper.commandDescription(program), helper.helpWidth ?? 80),
      '',
      ...section('Commands:', commands, width(commands), helper),
      ...section(t.help.commonOptions, optionItems, width(optionItems), helper),
      helper.styleTitle(t.help.examplesTitle),
      ...exampleLines(t).map(([line, what]) => `  ${line}  ${helper.styleDescriptionText(`# ${what}`)}`),
      '',
      t.help.moreOptions,
      '',
    ].join('\n');
  };
}

/** `agentpay help options`: every global option, as the main help once listed them all. */
function everyOptionHelp(program: Command) {
  return (_command: Command, helper: Help): string => {
    const items = helper.visibleOptions(program).map((option) => optionItem(option, helper));
    const termWidth = Math.max(...items.map(([term]) => helper.displayWidth(term)));
    return [
      `${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(program))}`,
      '',
      ...section('Global Options:', items, termWidth, helper),
    ].join('\n');
  };
}

/** The `options` command `help options` finds: hidden from the lists, it only shows its help. */
export function optionsHelpCommand(t: Catalogue): Command {
  const command = new Command('options').description(t.help.optionsCommand);
  return command.action(() => command.help());
}

/** Lays the program's help out, in the words the program was built with (cli-language.ts). */
export function layOutHelp(program: Command, t: Catalogue): void {
  program.configureHelp({ ...program.configureHelp(), formatHelp: mainHelp(t) });
  const options = program.commands.find((command) => command.name() === 'options');
  options?.configureHelp({ ...options.configureHelp(), formatHelp: everyOptionHelp(program) });
}
