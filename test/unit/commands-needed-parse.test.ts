import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import type { ProcessIo } from '../../src/output.js';

/**
 * Building only the commands a line needs (commands-needed.ts) must not change how any line
 * parses: each line here is parsed by the program built for it and by the program with every
 * command, and what each prints, throws, or would run (the command, its options with the
 * globals, its arguments) is the same. Lines a user types by mistake are the point.
 */
async function parsed(argv: readonly string[], forLine: boolean) {
  const said = { stdout: '', stderr: '' };
  const sink = (stream: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk, _encoding, done) {
        said[stream] += String(chunk);
        done();
      },
    });
  const io = { stdin: process.stdin, stdout: sink('stdout'), stderr: sink('stderr'), env: {} } as unknown as ProcessIo;
  const program = buildProgram(io, forLine ? { argv } : {});
  // Stops before the action: what would run is the outcome.
  program.hook('preAction', (_program, action) => {
    throw { runs: action.name(), of: action.parent?.name(), options: action.optsWithGlobals(), args: action.args };
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return { ...said, outcome: 'returned' };
  } catch (error) {
    const outcome =
      error instanceof Error ? { code: (error as { code?: string }).code, message: error.message } : error;
    return { ...said, outcome };
  }
}

const lines = [
  ['-v', 'check', '--service', '1'],
  ['check', '-v', '--service', '1', '--account', 'a'],
  ['--verbose=1', 'check'],
  ['check', '--verbose=1'],
  ['--profile', '-x', 'check'],
  ['--profile=pay', 'check'],
  ['--profile', 'pay', 'check'],
  ['--replay', 'sandbox', 'check'],
  ['--replay', 'x', 'sandbox'],
  ['--lang=ru', 'check'],
  ['--lang'],
  ['--record'],
  ['--base-url', 'check'],
  ['help', 'pay'],
  ['pay', 'help'],
  ['help', 'nosuch'],
  ['chek'],
  ['--json', 'chek'],
  ['check', 'pay'],
  ['-', 'check'],
  ['check', '--', 'x'],
  ['--', 'check'],
  ['status', '--', '1', '--json'],
  ['-V', 'check'],
  ['check', '--version'],
  ['-vV'],
  ['-Vv'],
  ['--help', 'check'],
  ['check', '-h'],
  ['--sandbox', 'pay', '--help'],
  ['--he', 'check'],
  ['--verb', 'check'],
  ['-p', 'x', 'check'],
  ['--metrics-file', 'x', 'report'],
  ['report', '--metrics-file', 'x', '--metrics-job', 'nightly'],
  ['ledger', 'migrate', '--help'],
  ['ledger', 'nosuch'],
  ['completion', 'bash'],
  ['completion'],
];

it.each(lines.map((line) => [line.join(' '), line]))('%s parses as with every command built', async (_, line) => {
  const everyCommand = await parsed(line, false);
  expect(await parsed(line, true)).toEqual(everyCommand);
});
