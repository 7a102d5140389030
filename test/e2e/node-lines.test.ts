import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, isolatedEnv, runCli } from '../helpers/cli.js';

const engines = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
).engines.node;

/**
 * A Node older than the supported lines on PATH, outside node_modules/.bin (where npm puts the
 * devDependency's Node first): Debian's stable ships Node 20. Outside CI a machine may have none.
 */
function olderNode(): { path: string; version: string } | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    if (directory === '' || directory.endsWith(`node_modules${sep}.bin`)) continue;
    const candidate = join(directory, 'node');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 21)) return { path: candidate, version };
  }
  if (process.env.CI === 'true') throw new Error('no Node older than 22.21 on PATH: CI runs on Debian, whose is 20');
  return undefined;
}
const older = olderNode();

describe.skipIf(older === undefined)('started by an older Node (skipped: no Node older than 22.21 on PATH)', () => {
  it('prints one line naming the supported lines, nothing on stdout, and exits 2', () => {
    const command = ['--sandbox', 'check', '--service', '101', '--account', '7011234567'];
    for (const args of [command, ['__complete', 'bash', 'agentpay', 'ch']]) {
      const run = spawnSync(older!.path, [binPath, ...args], { env: isolatedEnv(), encoding: 'utf8' });
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `agentpay: needs Node.js 22 (22.21 or later), 24 (24.5 or later) or 26; this is Node.js ${older!.version}\n`,
      );
      expect(run.status).toBe(2);
    }
    // The line names every line package.json "engines" supports.
    expect([...engines.matchAll(/\^(\d+)/g)].map((match) => match[1])).toEqual(['22', '24', '26']);
  });
});

describe('warnings on stderr', () => {
  it("Node 22's SQLite ExperimentalWarning is not printed; other warnings still are", async () => {
    // Loaded after the program: node:sqlite (on Node 22 it warns for real), then the same words
    // by hand (Node 24 and 26 no longer warn), and two warnings of other kinds.
    const preload = join(mkdtempSync(join(tmpdir(), 'agentpay-warnings-')), 'warn.cjs');
    writeFileSync(
      preload,
      `setImmediate(() => {
        require('node:sqlite');
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('VM Modules is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('a warning of another kind');
      });\n`,
    );
    const run = await runCli(['--version'], { nodeArgs: ['--require', preload] });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(run.stderr).not.toMatch(/SQLite/);
    expect(run.stderr).toMatch(/\) ExperimentalWarning: VM Modules is an experimental feature/);
    expect(run.stderr).toMatch(/\) Warning: a warning of another kind\n/);
  });
});
