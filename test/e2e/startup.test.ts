import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { runCli } from '../helpers/cli.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const buildInfo = JSON.parse(readFileSync(new URL('../../dist/build-info.json', import.meta.url), 'utf8')) as {
  version: string;
  help: { width: number; text: string };
};

/** Commander's own `--help` output for the current definition, as a pipe (not a terminal) gets it. */
async function liveHelp(): Promise<string> {
  let text = '';
  const stdout = { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WriteStream;
  const program = buildProgram({ stdin: process.stdin, stdout, stderr: process.stderr, env: {} });
  // What commander's default gives when stdout is not a terminal (typed as a number, it may be undefined).
  program.configureOutput({ getOutHelpWidth: () => undefined as unknown as number });
  await expect(program.parseAsync(['--help'], { from: 'user' })).rejects.toMatchObject({ code: 'commander.helpDisplayed' });
  return text;
}

describe('start-up answers served from the build', () => {
  it('the cached help is what commander prints for the current definition', async () => {
    expect(buildInfo.help.text).toBe(await liveHelp());
    expect(buildInfo.version).toBe(packageVersion);
  });

  it('--help and -h from the cache equal the help commander lays out live', async () => {
    // With another option on the line the fast path is skipped and commander answers.
    const live = await runCli(['--verbose', '--help']);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('Usage: agentpay');
    for (const flag of ['--help', '-h']) {
      const cached = await runCli([flag]);
      expect(cached).toEqual({ code: 0, stdout: live.stdout, stderr: '' });
    }
  });

  it('--version and -V print the package version, as commander does', async () => {
    const live = await runCli(['--verbose', '--version']);
    expect(live).toEqual({ code: 0, stdout: `${packageVersion}\n`, stderr: '' });
    expect(await runCli(['--version'])).toEqual(live);
    expect(await runCli(['-V'])).toEqual(live);
  });
});
