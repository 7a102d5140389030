import type { ExitCodeValue } from './errors.js';

/**
 * The one error boundary: runs the program, prints a one-line message for any error
 * (the stack only under --verbose), and sets the exit code. Nothing else exits.
 *
 * Nothing is imported up front: commander and everything else load when the command line asks
 * for them. (`--version` and `--help` are answered before this file, by bin/agentpay.js.)
 */
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
try {
  const { runCli } = await import('./cli.js');
  await runCli(argv, {
    // Made on first use: most commands never read stdin, and making it costs a few ms.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  });
} catch (error) {
  process.exitCode = await report(error, argv, process.stderr);
}
