import { setMaxListeners } from 'node:events';
import { type ErrorLine, errorLines } from './errors/error-line.js';
import {
  commanderDoneCodes,
  ExitCode,
  type ExitCodeValue,
  exitCodeOfSignal,
  type StopSignal,
} from './errors/exit-codes.js';
import type { Interrupts } from './interrupts.js';
import { stopSignals } from './platform.js';
import type { RunScope } from './run-scope.js';

// The one error boundary and the only process-wide state: the run (language, secrets), the
// signals, the exit code. Nothing else exits. The rest loads when the command line asks for it.
const argv = process.argv.slice(2);
const json = argv.includes('--json');
const verbose = argv.includes('-v') || argv.includes('--verbose');
/** The command has settled and said how it ended. */
let settled = false;

async function main(): Promise<void> {
  const [{ languageOfCommandLine }, { inRunScope, openRunScope }, { stoppedBy }] = await Promise.all([
    import('./settings/language.js'),
    import('./run-scope.js'),
    import('./interrupts.js'),
  ]);
  const run = await openRunScope(languageOfCommandLine(argv, process.env));
  const interrupts = listenForSignals(run, (body) => inRunScope(run, body));
  process.on('exit', () => endUnsettled(run, stoppedBy(interrupts)));
  await inRunScope(run, async () => {
    try {
      const { runCli } = await import('./cli.js');
      // stdin made on first use: most commands never read it.
      const io = {
        get stdin() {
          return process.stdin;
        },
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        interrupts,
      };
      await runCli(argv, io, run.said);
    } catch (error) {
      process.exitCode = await report(error, run, stoppedBy(interrupts));
    }
  });
  settled = true;
  // Stopped by a signal and told so: nothing left behind (a prompt, a connection's goodbye) keeps the process.
  if (stoppedBy(interrupts) !== undefined) process.exit();
}

/** The event loop ran dry before the command settled: a prompt a signal ended, or a bug (exit 70). */
function endUnsettled(run: RunScope, signal: StopSignal | undefined): void {
  if (settled) return;
  const said = run.said;
  const line: ErrorLine =
    signal === undefined
      ? { exitCode: ExitCode.internal, type: 'InternalError', message: said.errors.stoppedEarly }
      : { exitCode: exitCodeOfSignal(signal), type: 'InterruptedError', message: said.errors.stopped(signal) };
  process.stderr.write(errorLines(line, { json, prefix: signal === undefined ? said.boundary.internalError : '' }));
  process.exitCode = line.exitCode;
}

/** Prints the one-line message (and hint) for `error`; a bug's text is not ours, so it is redacted. */
async function report(error: unknown, run: RunScope, signal: StopSignal | undefined): Promise<ExitCodeValue> {
  const [{ CommanderError }, { failureOf }, { shownMessage }] = await Promise.all([
    import('commander'),
    import('./errors/failure.js'),
    import('./render/sanitize.js'),
  ]);
  if (error instanceof CommanderError) return commanderExit(error);
  const failure = failureOf(error, run.said, signal);
  const shown = (text: string) => shownMessage(text, false);
  let text = errorLines(failure, { json, prefix: failure.known ? '' : run.said.boundary.internalError });
  if (verbose && failure.bodySample !== undefined)
    text += `  ${run.said.boundary.firstBytes} ${shown(JSON.stringify(failure.bodySample))}\n`;
  if (verbose && failure.stack !== undefined) text += `${shown(failure.stack)}\n`;
  process.stderr.write(failure.known ? text : run.secrets.redact(text));
  return failure.exitCode;
}

/** Commander printed its own message (not under --json: cli.ts); help and version are no failures. */
function commanderExit(error: { code: string; message: string }): ExitCodeValue {
  if (commanderDoneCodes.has(error.code)) return ExitCode.success;
  if (json) {
    // "error: unknown command 'chek'\n(Did you mean check?)" -> message and hint.
    const [message = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
    const line = { exitCode: ExitCode.usage, type: 'UsageError', message, hint: rest.join(' ').trim() };
    process.stderr.write(errorLines(line, { json }));
  }
  return ExitCode.usage;
}

/** SIGINT and SIGTERM, heard here alone: the first aborts the signal the commands get (they stop,
 * record what they learned, and end with a line), each is told to the commands that listen (a
 * bulk run's second Ctrl+C), a third ends the process at once (the ledger was written ahead). */
function listenForSignals(run: RunScope, inRun: (body: () => void) => void): Interrupts {
  const stop = new AbortController();
  // Every exchange in flight listens to it: a bulk run at --concurrency 16 has more than Node's 10.
  setMaxListeners(0, stop.signal);
  const listeners = new Set<(signal: StopSignal) => void>();
  let heard = 0;
  const on = (signal: StopSignal) => () => {
    // Settled and told: whatever still keeps the process alive (a bug) must not outlast a signal.
    if (settled) process.exit();
    heard++;
    if (!stop.signal.aborted) stop.abort(signal);
    for (const listener of [...listeners]) listener(signal);
    if (heard >= 3) stopAtOnce(signal, run);
  };
  for (const { heard: name, as } of stopSignals(process.platform)) process.on(name, () => inRun(on(as)));
  return {
    signal: stop.signal,
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function stopAtOnce(signal: StopSignal, run: RunScope): void {
  const exitCode = exitCodeOfSignal(signal);
  const message = run.said.errors.stoppedAtOnce(signal);
  process.stderr.write(errorLines({ exitCode, type: 'InterruptedError', message }, { json }));
  settled = true;
  process.exit(exitCode);
}

/** Node 22 warns once that node:sqlite is experimental: a user can do nothing about it. Other warnings stand. */
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

// Called, not awaited: the bundle is CommonJS, which has no top-level await (scripts/bundle.mjs).
void main().finally(() => (settled = true));
