import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWindowsExecutable } from '../../scripts/windows-executable.mjs';
import { en } from '../../src/i18n/en.js';
import { isolatedEnv, runCli, spawnAgentpay, testBinary } from '../helpers/cli.js';

/*
 * The single executable of `npm run package`, run as a desk runs it: the tests that drive the bin
 * run it under AGENTPAY_TEST_BINARY (.ci/run); these say what that mode rests on. Without the
 * variable there is no binary to try: the npm install's tests cover the same commands.
 */
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const packageDir = new URL('../../dist/package/', import.meta.url);
const windowsFile = join(packageDir.pathname, `agentpay-${version}-win-x64.exe`);

describe.skipIf(testBinary === undefined)('the single executable (AGENTPAY_TEST_BINARY)', () => {
  it('runs with a PATH that has no node on it', async () => {
    const env = isolatedEnv();
    const lookUp = spawnSync('sh', ['-c', 'command -v node || command -v nodejs'], { env, encoding: 'utf8' });
    expect(lookUp.status).not.toBe(0);
    expect(lookUp.stdout).toBe('');
    const result = await runCli(['--version'], { env });
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('is a program of its own, with no package.json, node_modules or dist beside it', () => {
    const file = readFileSync(testBinary!);
    expect(file.subarray(0, 4).toString('latin1')).toBe('\u007fELF');
    for (const name of ['package.json', 'node_modules', 'dist', 'completion.json'])
      expect(existsSync(join(dirname(testBinary!), name))).toBe(false);
  });

  it('answers --version, --help and a sandbox check from any working directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agentpay-anywhere-'));
    const env = isolatedEnv();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawnAgentpay(args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout }));
      });
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n` });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(en.help.program);
    const check = await run(['--sandbox', 'check', '--service', '101', '--account', '7011234567']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('100 GameCoins');
  });
});

describe.skipIf(!existsSync(windowsFile))('the Windows file of npm run package', () => {
  it('is a 64-bit PE32+ console program with agentpay injected as its single-executable blob', () => {
    const file = readFileSync(windowsFile);
    expect(describeWindowsExecutable(file)).toEqual({
      pe32Plus: true,
      x64: true,
      console: true,
      seaResource: true,
      fuseFlipped: true,
    });
    // The bundle is in the blob as text: the program's English catalogue is there.
    expect(file.includes(en.help.program)).toBe(true);
  });
});
