import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { GlobalFlags } from './config.js';
import type { ProcessIo } from './output.js';

/**
 * argv -> typed options -> a command. Command modules are imported only when their command
 * runs, so `--help` and `--version` load nothing but commander.
 */
type CommandRunner = (options: unknown, context: import('./commands/context.js').CommandContext) => Promise<void>;

/**
 * Required options are checked in a preAction hook, not by commander's requiredOption:
 * commander checks those before unknown options, so `pay --servce 101` would say "--service
 * not specified" instead of suggesting the typo's fix. The hook runs after that check.
 */
const requiredOptions = new WeakMap<Command, Option[]>();

function addRequiredOption(command: Command, flags: string, description: string): void {
  const option = new Option(flags, `${description} (required)`);
  requiredOptions.set(command, [...(requiredOptions.get(command) ?? []), option]);
  command.addOption(option);
}

function checkRequiredOptions(_program: Command, action: Command): void {
  for (const option of requiredOptions.get(action) ?? []) {
    if (action.getOptionValue(option.attributeName()) === undefined) {
      action.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue', exitCode: 2 });
    }
  }
}

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

/** For repeatable options: `--var a=1 --var b=2` gives ['a=1', 'b=2']. */
const collect = (value: string, previous: string[]) => [...previous, value];

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

  const run = (load: () => Promise<CommandRunner>, positionalName = 'ids') =>
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

  const check = program
    .command('check')
    .description('list the vouchers of a service for an account (AccountCheck)')
    .usage('--service <id> --account <account> [options]');
  addRequiredOption(check, '--service <id>', 'service id');
  addRequiredOption(check, '--account <account>', 'customer account');
  check
    .option('--amount <decimal>', 'Amount sent with the check (default 0)')
    .option('--currency <code>', 'currency code (default KZT)')
    .action(run(async () => (await import('./commands/check.js')).runCheck));

  const pay = program
    .command('pay')
    .description('pay a voucher: --invoice-id for a dynamic one (its exact OrderAmount is sent), --amount for a static one')
    .usage('--service <id> --account <account> (--invoice-id <id> | --amount <decimal>) [options]');
  addRequiredOption(pay, '--service <id>', 'service id');
  addRequiredOption(pay, '--account <account>', 'customer account');
  pay
    .option('--currency <code>', 'currency code (default KZT)')
    .option('--invoice-id <id>', 'InvoiceId from `agentpay check` (dynamic voucher)')
    .option('--amount <decimal>', 'amount of a static voucher; with --invoice-id it must equal the OrderAmount exactly')
    .option('--txn-id <digits>', 'TransactionID to use (default: a fresh unique one); the same id never pays twice')
    .option('--dry-run', 'print the Payment form that would be sent, and send nothing')
    .action(run(async () => (await import('./commands/pay.js')).runPay));

  program
    .command('buy')
    .description('interactive top-up at a terminal: pick a service, an account and a voucher, confirm, pay')
    .option('--service <id>', 'service id (asked when not given)')
    .option('--account <account>', 'customer account (asked when not given)')
    .option('--currency <code>', 'currency code (asked when not given; default KZT)')
    .option('--amount <decimal>', 'amount of a static voucher; for a dynamic one, starts the list on the voucher that costs exactly this')
    .action(run(async () => (await import('./commands/buy/run.js')).runBuy));

  program
    .command('status')
    .description('look transactions up by TransactionID (Status)')
    .usage('[options] <txn-id...>  (or --from-file <path|->)')
    .argument('[txn-id...]', 'transaction ids')
    .option('--from-file <path>', 'read ids from a file, one a line; - reads stdin')
    .option('--wait <seconds>', 'poll a pending transaction until final or this many seconds pass')
    .option('--concurrency <n>', 'look-ups in flight at once (default 4)')
    .action(run(async () => (await import('./commands/status.js')).runStatus));

  program
    .command('reconcile')
    .description('settle every journaled payment not yet final with Status; safe to run from cron')
    .option('--since <date>', 'only payments journaled since a date (2026-11-21), time (ISO 8601) or age (30m, 12h, 7d)')
    .option('--grace <seconds>', '"not found" becomes final ("never made") only after this age (default 120)')
    .option('--concurrency <n>', 'look-ups in flight at once (default 4)')
    .action(run(async () => (await import('./commands/reconcile.js')).runReconcile));

  program
    .command('history')
    .description('the journal: latest state of each payment')
    .option('--since <date>', 'only payments journaled since a date, time or age (30m, 12h, 7d)')
    .option('--state <state>', 'only payments in this state: success, failed, pending, unknown')
    .option('--gateway <base-url|sandbox>', 'only payments made through this gateway (a Gateway column shows when several are listed)')
    .action(run(async () => (await import('./commands/history.js')).runHistory));

  program
    .command('doctor')
    .description('show each setting and where it came from, then check that the gateway answers')
    .action(run(async () => (await import('./commands/doctor.js')).runDoctor));

  program
    .command('scenario')
    .description('run scenario files: steps against the gateway with assertions (a conformance suite is in examples/)')
    .argument('<file...>', 'scenario files, YAML or JSON')
    .option('--var <name=value>', 'fill ${var.name} in the files (repeatable; or env AGENTPAY_VAR_<NAME>)', collect, [])
    .option('--report <junit:path>', 'also write a JUnit XML report to path; - prints it on stdout and moves the live lines to stderr (repeatable)', collect, [])
    .option('--bail', 'stop at the first case that does not pass')
    .action(run(async () => (await import('./commands/scenario.js')).runScenario, 'files'));

  program
    .command('sandbox')
    .description('run the sandbox gateway in the foreground')
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for a free one (default 8080)')
    .option('--state <path>', 'keep transactions in this file (default: in memory)')
    .option('--pending <n>', 'payments stay in progress for n Status polls (default 0)')
    .option('--latency <ms>', 'fault: wait this long before each answer')
    .option('--drop-after-commit <n>', 'fault: commit the next n payments, then cut the connection instead of answering')
    .option('--fail-rate <0..1>', 'fault: answer this share of committed payments with HTTP 500')
    .addOption(
      new Option('--garbage <kind>', 'fault: answer every request (after processing it) with a broken answer').choices(['html500', 'badjson', 'shape', 'huge', 'slow']),
    )
    .option('--break <rule>', 'break a spec rule on purpose, to test a conformance suite: idempotency, amount-check or echo (repeatable)', collect, [])
    .action(run(async () => (await import('./commands/sandbox.js')).runSandbox));

  if (!options.jsonErrors) for (const command of program.commands) showUsageAfterErrors(command);
  return program;
}

export async function runCli(argv: readonly string[], io: ProcessIo): Promise<void> {
  await buildProgram(io, { jsonErrors: argv.includes('--json') }).parseAsync([...argv], { from: 'user' });
}
