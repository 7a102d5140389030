import { setMaxListeners } from 'node:events';
import type { ExitCodeValue, StopSignal } from './errors.js';
import type { Interrupts } from './interrupts.js';
import { stopSignals } from './platform.js';

/**
 * The one error boundary: runs the program, prints a one-line message for any error, and sets
 * the exit code. An error no class of errors.ts describes is a bug: "internal error", exit 70,
 * and only such an error shows its stack, under --verbose (an expected refusal is not a crash).
 * Nothing else exits. A known error's text is ours, what came from outside in it blanked where
 * it came in (gateway/client.ts); a bug's message and stack are not, so they pass redactSecrets.
 *
 * Nothing is imported up front: commander and everything else load when the command line asks
 * for them, and cli.ts builds only the commands the command line needs.
 */
async function report(
  error: unknown,
  argv: readonly string[],
  stderr: NodeJS.WriteStream,
  signal: StopSignal | undefined,
): Promise<ExitCodeValue> {
  const [
    { CommanderError },
    { AgentpayError, ExitCode, InterruptedError },
    { InvalidFieldError },
    { redactSecrets },
    { t },
    { DeskRuleRefusedError },
  ] = await Promise.all([
    import('commander'),
    import('./errors.js'),
    import('./protocol/problems.js'),
    import('./secrets.js'),
    import('./i18n/current.js'),
    import('./desk-rule-error.js'),
  ]);
  // The language chosen at start-up (cli.ts); English when it failed before choosing.
  const said = t();
  // A message may quote a gateway's Message or an order file's cell: its controls are shown, never run.
  const { shownMessage, terminalSafeJson } = await import('./render/sanitize.js');
  const shown = (text: string) => shownMessage(text, false);
  if (error instanceof CommanderError) {
    // Commander printed its own message (not under --json: see cli.ts); help and version are not failures.
    const ok = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code);
    if (ok) return ExitCode.success;
    if (argv.includes('--json')) {
      // "error: unknown command 'chek'\n(Did you mean check?)" -> message and hint.
      const [message = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
      const hint = rest.join(' ').trim();
      stderr.write(
        `${JSON.stringify({ error: { exitCode: ExitCode.usage, type: 'UsageError', message, ...(hint ? { hint } : {}) } })}\n`,
      );
    }
    return ExitCode.usage;
  }
  // After SIGINT or SIGTERM, "cannot reach the gateway" is what the signal did (it cut the
  // exchange short): the signal's one line instead. Anything else stands as the command said
  // it: a payment left unknown (3), an outcome recorded nowhere (6), the gateway's refusal.
  if (signal !== undefined && error instanceof AgentpayError && error.exitCode === ExitCode.unreachable)
    error = new InterruptedError(signal);
  const known = error instanceof AgentpayError || error instanceof InvalidFieldError;
  const write = (text: string) => stderr.write(known ? text : redactSecrets(text));
  const exitCode: ExitCodeValue =
    error instanceof AgentpayError ? error.exitCode : known ? ExitCode.usage : ExitCode.internal;
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const message =
    error instanceof InvalidFieldError
      ? said.options.field(error)
      : error instanceof Error
        ? error.message
        : String(error);
  const hint = error instanceof AgentpayError ? error.hint : known ? undefined : said.boundary.internalErrorHint;
  if (argv.includes('--json')) {
    const type = known ? (error as Error).name : 'InternalError';
    // A desk rule's refusal names the rule (duplicate, limit, approval, shift) for a script.
    const rule = error instanceof DeskRuleRefusedError ? { rule: error.rule } : {};
    const json = { error: { exitCode, type, ...rule, message, ...(hint ? { hint } : {}) } };
    write(`${terminalSafeJson(JSON.stringify(json))}\n`);
  } else {
    write(`agentpay: ${known ? '' : said.boundary.internalError}${shown(message)}\n`);
    if (hint) write(`  ${shown(hint)}\n`);
  }
  if (verbose) {
    if (error instanceof AgentpayError && error.bodySample !== undefined) {
      write(`  ${said.boundary.firstBytes} ${shown(JSON.stringify(error.bodySample))}\n`);
    }
    if (!known && error instanceof Error && error.stack) write(`${shown(error.stack)}\n`);
  }
  return exitCode;
}

/**
 * SIGINT (Ctrl+C) and SIGTERM (cron, a service manager, `kill`), heard here alone for every
 * command: Node's default would end the process at once, without a word, whatever was in
 * flight. The first aborts the signal the command context hands down (commands stop their
 * look-ups, record what they learned, and end with a line and exit 130 or 143); each is told
 * to the commands that listen (a bulk run's second Ctrl+C stops its settling). A third ends the
 * process without waiting: the ledger's records are written ahead, so that costs a reconcile.
 */
function listenForSignals(argv: readonly string[]): Interrupts {
  const stop = new AbortController();
  // Every exchange in flight listens to it: a bulk run at --concurrency 16 has more than Node's 10.
  setMaxListeners(0, stop.signal);
  const listeners = new Set<(signal: StopSignal) => void>();
  let heard = 0;
  const on = (signal: StopSignal) => () => {
    // The command has settled and said how it ended: whatever still keeps the process alive
    // (a bug: a server or timer left open) must not outlast a signal. Its exit code stands.
    if (finished) process.exit();
    heard++;
    if (!stop.signal.aborted) stop.abort(signal);
    for (const listener of [...listeners]) listener(signal);
    if (heard >= 3) void stopAtOnce(signal, argv);
  };
  for (const { heard: name, as } of stopSignals(process.platform)) process.on(name, on(as));
  return {
    signal: stop.signal,
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function stopAtOnce(signal: StopSignal, argv: readonly string[]): Promise<void> {
  const [{ exitCodeOfSignal }, { t }] = await Promise.all([import('./errors.js'), import('./i18n/current.js')]);
  const exitCode = exitCodeOfSignal(signal);
  const message = t().errors.stoppedAtOnce(signal);
  process.stderr.write(
    argv.includes('--json')
      ? `${JSON.stringify({ error: { exitCode, type: 'InterruptedError', message } })}\n`
      : `agentpay: ${message}\n`,
  );
  finished = true;
  process.exit(exitCode);
}

/** Runs the command line; every error ends here, in report(), as an exit code. */
async function main(argv: readonly string[]): Promise<void> {
  const interrupts = listenForSignals(argv);
  const signalled = () => (interrupts.signal.aborted ? (interrupts.signal.reason as StopSignal) : undefined);
  try {
    const [{ runCli }, { t }] = await Promise.all([import('./cli.js'), import('./i18n/current.js')]);
    stoppedBeforeSettling = () => {
      const signal = signalled();
      return signal === undefined ? undefined : { signal, message: t().errors.stopped(signal) };
    };
    await runCli(argv, {
      // Made on first use: most commands never read stdin, and making it costs a few ms.
      get stdin() {
        return process.stdin;
      },
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      interrupts,
    });
  } catch (error) {
    process.exitCode = await report(error, argv, process.stderr, signalled());
  }
  // Stopped by a signal and told so: nothing the command left behind (a prompt waiting on the
  // terminal, a connection's last goodbye) may keep the process.
  if (signalled() !== undefined) {
    finished = true;
    process.exit();
  }
}

/**
 * Node 22 warns on stderr, once a process, that node:sqlite (the embedded ledger) is experimental:
 * a user can do nothing about it. Node's own printer stays the 'warning' listener for every other
 * warning (and keeps --no-warnings, --trace-warnings, --redirect-warnings); no flag is needed.
 */
function hideSqliteExperimentalWarning(): void {
  for (const printWarning of process.listeners('warning')) {
    process.removeListener('warning', printWarning);
    process.on('warning', (warning) => {
      const sqlite = warning.name === 'ExperimentalWarning' && warning.message.startsWith('SQLite is an experimental');
      if (!sqlite) printWarning(warning);
    });
  }
}
hideSqliteExperimentalWarning();

// A closed pipe (`agentpay status ... | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

/**
 * The signal that stopped the process before its command settled, and its line: a prompt
 * (enquirer) ends the process itself on SIGINT or SIGTERM. Set once the catalogues are loaded.
 */
let stoppedBeforeSettling: () => { signal: StopSignal; message: string } | undefined = () => undefined;
// Called, not awaited at the top level: the bundle bin/agentpay.js runs (dist/agentpay.cjs) is
// CommonJS, which has no top-level await (scripts/bundle.mjs).
let finished = false;
const argv = process.argv.slice(2);
void main(argv).finally(() => (finished = true));
// What a top-level await gave for free: a process whose event loop ran dry before the command
// settled (a bug: nothing left to wait on) must not exit 0. It is an internal error like any
// other bug (exit 70, as report() gives one); if it was paying, the journal holds the intent.
// The code is written out: errors.js is not loaded up front (see above).
process.on('exit', () => {
  if (finished) return;
  const stopped = stoppedBeforeSettling();
  if (stopped !== undefined) {
    // Written out, as below: 130 for SIGINT, 143 for SIGTERM (errors.ts exitCodeOfSignal).
    const exitCode: ExitCodeValue = stopped.signal === 'SIGTERM' ? 143 : 130;
    const { message } = stopped;
    process.stderr.write(
      argv.includes('--json')
        ? `${JSON.stringify({ error: { exitCode, type: 'InterruptedError', message } })}\n`
        : `agentpay: ${message}\n`,
    );
    process.exitCode = exitCode;
    return;
  }
  const message =
    'the command stopped before it finished (nothing was left to wait for); if it was paying, run `agentpay reconcile`';
  const internal: ExitCodeValue = 70;
  process.stderr.write(
    argv.includes('--json')
      ? `${JSON.stringify({ error: { exitCode: internal, type: 'InternalError', message } })}\n`
      : `agentpay: internal error: ${message}\n`,
  );
  process.exitCode = internal;
});
