import { readFileSync } from 'node:fs';
import type { ExitCodeValue } from './errors.js';

/**
 * The one error boundary: runs the program, prints a one-line message for any error
 * (the stack only under --verbose), and sets the exit code. Nothing else exits.
 *
 * Only node:fs is imported up front. `--version` and a top-level `--help` are answered from
 * dist/build-info.json, which the build writes from the same commander definition
 * (scripts/build-info.mjs), so they cost about what starting Node costs; everything else,
 * commander included, is loaded when the command line asks for it.
 */
interface BuildInfo {
  version: string;
  /** Commander's help for `agentpay --help`, laid out for `width` columns. */
  help: { width: number; text: string };
}

function readBuildInfo(): BuildInfo | undefined {
  try {
    return JSON.parse(readFileSync(new URL('./build-info.json', import.meta.url), 'utf8')) as BuildInfo;
  } catch {
    return undefined; // not built by `npm run build`: commander answers instead
  }
}

/** The answer to `agentpay --version` or `agentpay --help` when it needs no parsing, else undefined. */
function cachedAnswer(argv: readonly string[], stdout: NodeJS.WriteStream): string | undefined {
  const [only] = argv;
  if (argv.length !== 1 || !['--version', '-V', '--help', '-h'].includes(only!)) return undefined;
  const info = readBuildInfo();
  if (info === undefined) return undefined;
  if (only === '--version' || only === '-V') return `${info.version}\n`;
  // Commander wraps help to the terminal's width, and to 80 columns when stdout is not a terminal.
  const width = stdout.isTTY ? stdout.columns : undefined;
  return (width ?? 80) === info.help.width ? info.help.text : undefined;
}

async function report(error: unknown, argv: readonly string[], stderr: NodeJS.WriteStream): Promise<ExitCodeValue> {
  const [{ CommanderError }, { AgentpayError, ExitCode, GatewayProtocolError }, { InvalidFieldError }] = await Promise.all([
    import('commander'),
    import('./errors.js'),
    import('./protocol/problems.js'),
  ]);
  if (error instanceof CommanderError) {
    // Commander printed its own message; help and version are not failures.
    const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    return ok ? ExitCode.success : ExitCode.usage;
  }
  const exitCode: ExitCodeValue = error instanceof AgentpayError ? error.exitCode : error instanceof InvalidFieldError ? ExitCode.usage : 1;
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const known = error instanceof AgentpayError || error instanceof InvalidFieldError;
  const message = error instanceof Error ? error.message : String(error);
  const hint = error instanceof AgentpayError ? error.hint : undefined;
  if (argv.includes('--json')) {
    stderr.write(`${JSON.stringify({ error: { exitCode, type: error instanceof Error ? error.name : 'Error', message, ...(hint ? { hint } : {}) } })}\n`);
  } else {
    stderr.write(`agentpay: ${known ? '' : 'internal error: '}${message}\n`);
    if (hint) stderr.write(`  ${hint}\n`);
  }
  if (verbose) {
    if (error instanceof GatewayProtocolError && error.bodySample !== undefined) {
      stderr.write(`  first bytes of the answer: ${JSON.stringify(error.bodySample)}\n`);
    }
    if (error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  }
  return exitCode;
}

const argv = process.argv.slice(2);
// A closed pipe (`agentpay status ... | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
const answer = cachedAnswer(argv, process.stdout);
if (answer !== undefined) {
  process.stdout.write(answer);
} else {
  try {
    const { runCli } = await import('./cli.js');
    await runCli(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
  } catch (error) {
    process.exitCode = await report(error, argv, process.stderr);
  }
}
