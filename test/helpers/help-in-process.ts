import { CommanderError } from 'commander';
import { runCli } from '../../src/cli.js';
import { inRunScope, openRunScope } from '../../src/run-scope.js';
import { languageOfCommandLine } from '../../src/settings/language.js';
import type { CliResult } from './cli.js';

/** A stream that keeps what is written to it, as the pipe a spawned run's output goes to. */
function kept(): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = { write: (chunk: string) => ((text += chunk), true) };
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/**
 * `agentpay <args>` for a help screen, run as main.ts runs it but in this process: the language
 * chosen from the command line and `env`, the run's catalogue. Commander ends help by throwing
 * (exitOverride); main.ts makes helpDisplayed exit 0, and so does this. Anything else is thrown.
 */
export async function helpInProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const stdout = kept();
  const stderr = kept();
  const run = await openRunScope(languageOfCommandLine(args, env));
  // Commander lays help out for process.stdout's width when it is a terminal: a pipe's (80) is the bin's here.
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
  try {
    const io = { stdin: process.stdin, stdout: stdout.stream, stderr: stderr.stream, env };
    await inRunScope(run, () => runCli(args, io, run.said));
  } catch (error) {
    if (!(error instanceof CommanderError && error.code === 'commander.helpDisplayed')) throw error;
    return { code: error.exitCode, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
  throw new Error(`agentpay ${args.join(' ')} ended without showing its help`);
}
