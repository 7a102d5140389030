import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { buyCommand } from './commands/buy/command.js';
import { checkCommand } from './commands/check/command.js';
import { checkRequiredOptions, type LazyAction } from './commands/define.js';
import { doctorCommand } from './commands/doctor/command.js';
import { historyCommand } from './commands/history/command.js';
import { payCommand } from './commands/pay/command.js';
import { reconcileCommand } from './commands/reconcile/command.js';
import { sandboxCommand } from './commands/sandbox/command.js';
import { scenarioCommand } from './commands/scenario/command.js';
import { statusCommand } from './commands/status/command.js';
import type { GlobalFlags } from './config.js';
import type { ProcessIo } from './output.js';

/**
 * argv -> typed options -> a command. Each command defines its own options in
 * commands/<name>/command.ts; this file adds the global options and assembles them. Command
 * actions are imported only when their command runs, so `--help` and `--version` load
 * nothing but commander.
 */
const commandDefinitions = [
  checkCommand,
  payCommand,
  buyCommand,
  statusCommand,
  reconcileCommand,
  historyCommand,
  doctorCommand,
  scenarioCommand,
  sandboxCommand,
];

/** After any usage error of a command: its usage line, so the fix is in sight. */
function showUsageAfterErrors(command: Command): Command {
  return command.showHelpAfterError(`usage: agentpay ${command.name()} ${command.usage()}  (agentpay ${command.name()} --help for more)`);
}

/** A mistyped `--password=…` is echoed by commander's "unknown option"; it is a secret. */
function scrubPasswordLikeOptions(text: string): string {
  return text.replace(/(--[\w-]*(?:password|passwd|secret)[\w-]*=)[^'\s]*/gi, '$1***');
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildProgram(io: ProcessIo, options: { jsonErrors?: boolean } = {}): Command {
  const program = new Command('agentpay')
    .description('Top up customer accounts and buy vouchers through the agent payment gateway.')
    .version(version(), '-V, --version')
    .option('--base-url <url>', 'gateway base URL; requests go to POST <url>/home/index (env AGENTPAY_BASE_URL)')
    .option('--agent-id <id>', 'agent id (env AGENTPAY_AGENT_ID)')
    .option('--password-file <path>', 'read the agent password from a file, - for stdin (env AGENTPAY_PASSWORD_FILE; or AGENTPAY_PASSWORD)')
    .addOption(new Option('--password-format <format>', 'send the password plain or as MD5 (env AGENTPAY_PASSWORD_FORMAT; default plain)').choices(['plain', 'md5']))
    .option('--profile <name>', 'profile in $XDG_CONFIG_HOME/agentpay/config.json (env AGENTPAY_PROFILE; default "default")')
    .option('--sandbox', 'talk to the embedded sandbox gateway with its demo credentials')
    .option('--json', 'print JSON on stdout, one object a line; messages stay on stderr')
    .option('--timeout <ms>', 'time-out of each request in milliseconds (env AGENTPAY_TIMEOUT; default 30000)')
    .option('--pending-codes <list>', 'ResponseStatus codes that mean "in progress", comma-separated (env AGENTPAY_PENDING_CODES; none until set, 11 under --sandbox)')
    .addOption(new Option('--date-format <format>', 'RequestDate as local "YYYY-MM-DD HH:mm:ss" or UTC ISO 8601 (env AGENTPAY_DATE_FORMAT; default local)').choices(['local', 'iso']))
    .option('--journal <path>', 'the payment journal (env AGENTPAY_JOURNAL; default $XDG_STATE_HOME/agentpay/journal.jsonl)')
    .option('--not-found-codes <list>', 'Status codes meaning "no such transaction", comma-separated (env AGENTPAY_NOT_FOUND_CODES; none until set, 25 under --sandbox)')
    .option('--failed-codes <list>', 'ResponseStatus codes that are final refusals, comma-separated (env AGENTPAY_FAILED_CODES; none until set: any other code leaves a payment open)')
    .option('--settle-attempts <n>', 'Status look-ups after a payment answer that is lost or not final (env AGENTPAY_SETTLE_ATTEMPTS; default 5)')
    .option('--settle-delay <ms>', 'first wait before such a look-up, doubling each time (env AGENTPAY_SETTLE_DELAY; default 500)')
    .option('--ca-file <pem>', 'trust the CA certificates in this PEM file instead of the built-in ones (env AGENTPAY_CA_FILE); verification stays on')
    .option('--proxy <url>', 'send every request through this HTTP proxy (default: HTTPS_PROXY, HTTP_PROXY and NO_PROXY from the environment)')
    .option('--insecure-password-file', 'accept a password file that anyone on the machine can read')
    .option('-v, --verbose', 'show each request and response on stderr (the password as ***)')
    .option('--no-color', 'no colour, even on a terminal (NO_COLOR and FORCE_COLOR are honoured too)')
    .usage('[options] <command>')
    .showSuggestionAfterError(true)
    // Under --json the error boundary's one JSON line is the whole story: no usage text.
    .showHelpAfterError(options.jsonErrors ? false : '(agentpay --help lists the commands and options)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Under --json the error boundary prints commander's errors as one JSON line instead.
      outputError: (text, write) => {
        if (!options.jsonErrors) write(scrubPasswordLikeOptions(text));
      },
    })
    .hook('preAction', checkRequiredOptions);

  const run: LazyAction = (load, positionalName = 'ids') =>
    async (...args: unknown[]) => {
      const command = args.at(-1) as Command;
      // The command's module loads while the settings are read.
      const loading = load();
      const { createContext } = await import('./commands/context.js');
      const context = await createContext(command.optsWithGlobals<GlobalFlags>(), io);
      const positional = command.processedArgs[0] as string[] | undefined;
      try {
        await (await loading)({ ...command.opts(), ...(positional === undefined ? {} : { [positionalName]: positional }) }, context);
      } finally {
        // Data still gathered for stdout goes out before any error message (main.ts).
        context.out.flush();
      }
    };

  for (const define of commandDefinitions) program.addCommand(define(run).copyInheritedSettings(program));

  if (!options.jsonErrors) for (const command of program.commands) showUsageAfterErrors(command);
  return program;
}

export async function runCli(argv: readonly string[], io: ProcessIo): Promise<void> {
  await buildProgram(io, { jsonErrors: argv.includes('--json') }).parseAsync([...argv], { from: 'user' });
}
