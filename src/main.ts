import { CommanderError } from 'commander';
import { runCli } from './cli.js';
import { AgentpayError, ExitCode, type ExitCodeValue } from './errors.js';
import { InvalidFieldError } from './protocol/problems.js';
import { redactSecrets } from './secrets.js';

/**
 * The one error boundary: runs the program, prints a one-line message for any error
 * (the stack only under --verbose), and sets the exit code. Nothing else exits. Whatever it
 * prints passes through redactSecrets: no message, hint, answer sample or stack trace can
 * carry the password.
 */
function exitCodeOf(error: unknown): ExitCodeValue {
  if (error instanceof AgentpayError) return error.exitCode;
  if (error instanceof InvalidFieldError) return ExitCode.usage;
  return 1;
}

function report(error: unknown, argv: readonly string[], stderr: NodeJS.WriteStream): ExitCodeValue {
  if (error instanceof CommanderError) {
    // Commander printed its own message (not under --json: see cli.ts); help and version are not failures.
    const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    if (ok) return ExitCode.success;
    if (argv.includes('--json')) {
      // "error: unknown command 'chek'\n(Did you mean check?)" -> message and hint.
      const [message = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
      const hint = rest.join(' ').trim();
      stderr.write(`${JSON.stringify({ error: { exitCode: ExitCode.usage, type: 'UsageError', message, ...(hint ? { hint } : {}) } })}\n`);
    }
    return ExitCode.usage;
  }
  const write = (text: string) => stderr.write(redactSecrets(text));
  const exitCode = exitCodeOf(error);
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const known = error instanceof AgentpayError || error instanceof InvalidFieldError;
  const message = error instanceof Error ? error.message : String(error);
  const hint = error instanceof AgentpayError ? error.hint : undefined;
  if (argv.includes('--json')) {
    write(`${JSON.stringify({ error: { exitCode, type: error instanceof Error ? error.name : 'Error', message, ...(hint ? { hint } : {}) } })}\n`);
  } else {
    write(`agentpay: ${known ? '' : 'internal error: '}${message}\n`);
    if (hint) write(`  ${hint}\n`);
  }
  if (verbose) {
    if (error instanceof AgentpayError && error.bodySample !== undefined) {
      write(`  first bytes of the answer: ${JSON.stringify(error.bodySample)}\n`);
    }
    if (error instanceof Error && error.stack) write(`${error.stack}\n`);
  }
  return exitCode;
}

const argv = process.argv.slice(2);
// A closed pipe (`agentpay status ... | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
try {
  await runCli(argv, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
} catch (error) {
  process.exitCode = report(error, argv, process.stderr);
}
