import { Readable, Writable } from 'node:stream';
import { CommanderError } from 'commander';
import { runCli } from '../../src/cli.js';
import { errorLines } from '../../src/errors/error-line.js';
import { failureOf } from '../../src/errors/failure.js';
import type { ProcessIo } from '../../src/output.js';
import { inRunScope, openRunScope } from '../../src/run-scope.js';
import { languageOfCommandLine } from '../../src/settings/language.js';
import type { CliResult } from './cli.js';
import { passwordOf } from './desk-roles.js';

/**
 * A command run in this process through src/cli.ts, as main.ts runs it (a run scope of its own,
 * its exit code from failureOf): for set-up only, a payment or request a test then looks at.
 * Each caller names the test that still runs that command through the bin. What the bin alone
 * does (its start, a signal, its exit) is not run here.
 */
export async function setUpRun(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        add(chunk.toString());
        done();
      },
    }) as unknown as NodeJS.WriteStream;
  const io: ProcessIo = {
    stdin: Readable.from([]) as unknown as NodeJS.ReadStream,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    env: env.AGENTPAY_LEDGER === undefined ? env : { ...env, AGENTPAY_LEDGER: withRolePassword(env.AGENTPAY_LEDGER) },
  };
  const json = args.includes('--json');
  const run = await openRunScope(languageOfCommandLine(args, io.env));
  const code = await inRunScope(run, async () => {
    try {
      await runCli(args, io, run.said);
      return 0;
    } catch (error) {
      if (error instanceof CommanderError) throw error;
      const failure = failureOf(error, run.said, undefined);
      stderr += errorLines(failure, { json, prefix: failure.known ? '' : run.said.boundary.internalError });
      return failure.exitCode;
    }
  });
  return { code, stdout, stderr };
}

/** ~/.pgpass is read from this process's HOME in-process: a role's password (desk-roles.ts) goes in its URL. */
function withRolePassword(ledger: string): string {
  if (!ledger.startsWith('postgres')) return ledger;
  const url = new URL(ledger);
  if (url.password === '') url.password = passwordOf(decodeURIComponent(url.username));
  return url.href;
}
