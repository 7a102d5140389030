import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { localiseProgram } from './cli-language.js';
import { approvalsCommand, approveCommand, declineCommand } from './commands/approvals/command.js';
import { buyCommand } from './commands/buy/command.js';
import { checkCommand } from './commands/check/command.js';
import { completionCommand } from './commands/completion/command.js';
import { checkRequiredOptions, type LazyAction } from './commands/define.js';
import { doctorCommand } from './commands/doctor/command.js';
import { historyCommand } from './commands/history/command.js';
import { ledgerCommand } from './commands/ledger/command.js';
import { payCommand } from './commands/pay/command.js';
import { receiptCommand } from './commands/receipt/command.js';
import { reconcileCommand } from './commands/reconcile/command.js';
import { reportCommand } from './commands/report/command.js';
import { sandboxCommand } from './commands/sandbox/command.js';
import { scenarioCommand } from './commands/scenario/command.js';
import { shiftCommand } from './commands/shift/command.js';
import { statusCommand } from './commands/status/command.js';
import { commandsNeeded } from './commands-needed.js';
import { layOutHelp, optionsHelpCommand } from './help-layout.js';
import { type Catalogue, en } from './i18n/en.js';
import type { Language } from './i18n/language.js';
import type { ProcessIo } from './output.js';
import { addGlobalOptions } from './settings/options.js';
import type { GlobalFlags } from './settings/table.js';

/**
 * argv -> typed options -> a command. Each command defines its own options in
 * commands/<name>/command.ts, with their help in every language, and is built in the one this
 * process speaks; this file adds the global options and assembles them. Command
 * actions are imported only when their command runs, and only the commands a command line
 * needs are built (commands-needed.ts). In the order `--help` lists them.
 */
const commandDefinitions = {
  check: checkCommand,
  pay: payCommand,
  buy: buyCommand,
  status: statusCommand,
  reconcile: reconcileCommand,
  history: historyCommand,
  report: reportCommand,
  receipt: receiptCommand,
  approvals: approvalsCommand,
  approve: approveCommand,
  decline: declineCommand,
  shift: shiftCommand,
  ledger: ledgerCommand,
  doctor: doctorCommand,
  scenario: scenarioCommand,
  sandbox: sandboxCommand,
} satisfies Record<string, (run: LazyAction, language: Language) => Command>;
const commandNames = [...Object.keys(commandDefinitions), 'completion'];

/** After any usage error of a command: its usage line, so the fix is in sight. */
function showUsageAfterErrors(command: Command, t: Catalogue): Command {
  return command.showHelpAfterError(t.help.usageAfterError(command.name(), command.usage()));
}

/** A mistyped `--password=…` is echoed by commander's "unknown option"; it is a secret. */
function scrubPasswordLikeOptions(text: string): string {
  return text.replace(/(--[\w-]*(?:password|passwd|secret)[\w-]*=)[^'\s]*/gi, '$1***');
}

function version(): string {
  // import.meta.dirname is a plain path (the bundle defines it as __dirname): no URL to build.
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** `argv`: build only the commands it needs; every command without it (help, completion data, tests). */
export function buildProgram(
  io: ProcessIo,
  options: { jsonErrors?: boolean; t?: Catalogue; argv?: readonly string[] } = {},
): Command {
  const t = options.t ?? en;
  const program = addGlobalOptions(
    new Command('agentpay').description(t.help.program).version(version(), '-V, --version'),
  )
    .usage(t.help.programUsage)
    .showSuggestionAfterError(true)
    // Under --json the error boundary's one JSON line is the whole story: no usage text.
    .showHelpAfterError(options.jsonErrors ? false : t.help.afterError)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Under --json the error boundary prints commander's errors as one JSON line instead.
      outputError: (text, write) => {
        if (!options.jsonErrors) write(scrubPasswordLikeOptions(t.help.commanderError(text)));
      },
    })
    .hook('preAction', checkRequiredOptions);

  const run: LazyAction =
    (load, positionalName = 'ids') =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      // The command's module loads while the settings are read.
      const loading = load();
      const { createContext } = await import('./commands/context.js');
      const context = await createContext(command.optsWithGlobals<GlobalFlags>(), io);
      const positional = command.processedArgs[0] as string[] | undefined;
      try {
        await (await loading)(
          { ...command.opts(), ...(positional === undefined ? {} : { [positionalName]: positional }) },
          context,
        );
      } finally {
        // Data still gathered for stdout goes out before any error message (main.ts).
        context.out.flush();
        await context.close();
      }
    };

  const needed = options.argv === undefined ? { all: true } : commandsNeeded(program, options.argv, commandNames);
  const built = (name: string) => 'all' in needed || ('only' in needed && needed.only === name);
  for (const [name, define] of Object.entries(commandDefinitions)) {
    if (!built(name)) continue;
    const command = define(run, t.locale).copyInheritedSettings(program);
    // A command's own subcommands (ledger migrate, import, ...) behave as the command does.
    for (const sub of command.commands) sub.copyInheritedSettings(command);
    program.addCommand(command);
  }
  if (built('completion')) program.addCommand(completionCommand(io.stdout, t.locale).copyInheritedSettings(program));
  if ('all' in needed) program.addCommand(optionsHelpCommand(t).copyInheritedSettings(program), { hidden: true });

  localiseProgram(program, t);
  layOutHelp(program, t);
  if (!options.jsonErrors) for (const command of program.commands) showUsageAfterErrors(command, t);
  return program;
}

/** `said`: the catalogue of the language main.ts chose for this run. */
export async function runCli(argv: readonly string[], io: ProcessIo, said: Catalogue): Promise<void> {
  // The shell's Tab (completion/scripts.ts), when bin/agentpay.js had no dist/completion.json:
  // answered from the program's definition, without settings, gateway or ledger.
  if (argv[0] === '__complete') {
    const [{ completionData }, { writeCompletion }] = await Promise.all([
      import('./completion/tree.js'),
      import('./completion/answer.js'),
    ]);
    writeCompletion(completionData(buildProgram(io)), argv.slice(1), io.stdout, io.env);
    return;
  }
  await buildProgram(io, { jsonErrors: argv.includes('--json'), t: said, argv }).parseAsync([...argv], {
    from: 'user',
  });
}
