import { Readable } from 'node:stream';
import { CommanderError } from 'commander';
import { runCli } from '../../src/cli.js';
import { errorLines } from '../../src/errors/error-line.js';
import { commanderDoneCodes, ExitCode } from '../../src/errors/exit-codes.js';
import { failureOf } from '../../src/errors/failure.js';
import type { ProcessIo } from '../../src/output.js';
import { inRunScope, openRunScope } from '../../src/run-scope.js';
import { languageOfCommandLine } from '../../src/settings/language.js';
import type { CliResult } from './cli.js';
import { withRolePassword } from './desk-roles.js';
import { keptStream } from './scripted-prompter.js';

/**
 * `agentpay <args>` in this process through src/cli.ts, as main.ts runs it (its language, run scope, exit code
 * and error lines), for set-up, read-backs and help screens; each caller names the test that still runs the
 * command through the bin. What only the bin does (its start, a signal, its exit) is not run here.
 */
export async function runInProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const ledger = env.AGENTPAY_LEDGER;
  const io: ProcessIo = {
    stdin: Object.assign(Readable.from([]), { isTTY: false }) as unknown as NodeJS.ReadStream,
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: ledger === undefined ? env : { ...env, AGENTPAY_LEDGER: withRolePassword(ledger) },
  };
  const run = await openRunScope(languageOfCommandLine(args, io.env));
  const code = await inRunScope(run, async () => {
    try {
      await runCli(args, io, run.said);
      return ExitCode.success;
    } catch (error) {
      // Commander wrote its own message to io.stderr (cli.ts).
      if (error instanceof CommanderError)
        return commanderDoneCodes.has(error.code) ? ExitCode.success : ExitCode.usage;
      const failure = failureOf(error, run.said, undefined);
      io.stderr.write(
        errorLines(failure, {
          json: args.includes('--json'),
          prefix: failure.known ? '' : run.said.boundary.internalError,
        }),
      );
      return failure.exitCode;
    }
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
