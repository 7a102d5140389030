import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { GlobalFlags } from './settings/table.js';
import { addGlobalOptions } from './settings/options.js';
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
  const program = addGlobalOptions(
    new Command('agentpay').description('Top up customer accounts and buy vouchers through the agent payment gateway.').version(version(), '-V, --version'),
  )
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
    .action(run(async () => (await import('./commands/buy.js')).runBuy));

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
