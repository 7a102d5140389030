import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { speakInHelp, usageIn } from './cli-language.js';
import { approvalsCommand, approveCommand, declineCommand } from './commands/approvals/command.js';
import { buyCommand } from './commands/buy/command.js';
import { checkCommand } from './commands/check/command.js';
import { completionCommand } from './commands/completion/command.js';
import type { LazyAction } from './commands/define.js';
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
import { layOutHelp, optionsHelpCommand } from './help-layout.js';
import { type Catalogue, en } from './i18n/en.js';
import type { Language } from './i18n/language.js';
import { addOptions } from './options/commander.js';
import type { ProcessIo } from './output.js';
import { type GlobalFlags, settingsTable } from './settings/table.js';

/** The commands in the order `--help` lists them. Each defines its own options in
 * commands/<name>/, and its action's module is imported only when it runs. */
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

/** After any usage error of a command: its usage line, so the fix is in sight. */
function showUsageAfterErrors(command: Command, t: Catalogue): Command {
  return command.showHelpAfterError(t.help.usageAfterError(command.name(), usageIn(command, t)));
}

/** A mistyped `--password=…` is echoed by commander's "unknown option"; it is a secret. */
function scrubPasswordLikeOptions(text: string): string {
  return text.replace(/(--[\w-]*(?:password|passwd|secret)[\w-]*=)[^'\s]*/gi, '$1***');
}

/** Written in by the bundles (scripts/bundle.mjs, package.mjs); src run unbundled (the unit tests) reads package.json. */
declare const AGENTPAY_VERSION: string | undefined;

function version(): string {
  if (typeof AGENTPAY_VERSION === 'string') return AGENTPAY_VERSION;
  // import.meta.dirname is a plain path (the bundle defines it as __dirname): no URL to build.
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The program, its help in `t`'s language; `jsonErrors`: commander's errors left to main.ts.
 * `versionOnly`: no commands, for `agentpay --version` alone (the start-up budget, docs/performance.md). */
export function buildProgram(
  io: ProcessIo,
  options: { jsonErrors?: boolean; t?: Catalogue; versionOnly?: boolean } = {},
): Command {
  const t = options.t ?? en;
  const program = speakInHelp(new Command('agentpay'), t)
    .description(t.help.program)
    .version(version(), '-V, --version', t.help.version);
  addOptions(program, t.locale, settingsTable)
    .usage(t.help.programUsage)
    .showSuggestionAfterError(true)
    // Under --json the error boundary's one JSON line is the whole story: no usage text.
    .showHelpAfterError(options.jsonErrors ? false : t.help.afterError)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Help is laid out for the streams it is written to (off a terminal, commander's 80 columns), not the process's.
      getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : 80),
      getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : 80),
      // Under --json the error boundary prints commander's errors as one JSON line instead.
      outputError: (text, write) => {
        if (!options.jsonErrors) write(scrubPasswordLikeOptions(t.help.commanderError(text)));
      },
    });

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

  if (options.versionOnly) return program;
  for (const define of Object.values(commandDefinitions)) {
    const command = define(run, t.locale).copyInheritedSettings(program);
    // A command's own subcommands (ledger migrate, import, ...) behave as the command does.
    for (const sub of command.commands) sub.copyInheritedSettings(command);
    program.addCommand(command);
  }
  program.addCommand(completionCommand(io.stdout, t.locale).copyInheritedSettings(program));
  program.addCommand(optionsHelpCommand(t).copyInheritedSettings(program), { hidden: true });

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
  const versionOnly = argv.length === 1 && ['--version', '-V'].includes(argv[0]!);
  await buildProgram(io, { jsonErrors: argv.includes('--json'), t: said, versionOnly }).parseAsync([...argv], {
    from: 'user',
  });
}
