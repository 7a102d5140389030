import { Readable, Writable } from 'node:stream';
import { runCli as runProgram } from '../../src/cli.js';
import { failureOf } from '../../src/errors/failure.js';
import { t } from '../../src/run-scope.js';
import { languageOfCommandLine } from '../../src/settings/language.js';
import type { CliResult } from './cli.js';
import { inRun } from './in-run.js';

/**
 * A command run in this process, through the program's own code (src/cli.ts: settings, gateway, ledger), with
 * main.ts's exit code for what it threw. For set-up and read-backs only: payments that exist so that report,
 * receipt, history or a later pay have something to read, and `history` or `ledger export` reading a ledger
 * back. Those commands run through the bin in never-twice, desk-limits and receipt.test.ts (pay),
 * report.test.ts (history) and team-ledger-setup.test.ts (ledger export).
 */
export async function runInProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stream = (take: (text: string) => void) =>
    Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          take(chunk.toString());
          done();
        },
      }),
      { isTTY: false, columns: 0 },
    ) as unknown as NodeJS.WriteStream;
  const io = {
    // As runCli gives it (cli.ts): an empty stdin that is no terminal.
    stdin: Object.assign(Readable.from([]), { isTTY: false }) as unknown as NodeJS.ReadStream,
    stdout: stream((text) => (stdout += text)),
    stderr: stream((text) => (stderr += text)),
    env,
  };
  const language = languageOfCommandLine(args, env);
  return inRun(language, async () => {
    try {
      await runProgram(args, io, t());
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failure = failureOf(error, t(), undefined);
      return { code: failure.exitCode, stdout, stderr: `${stderr}${failure.message}\n` };
    }
  });
}
