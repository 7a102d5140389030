import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';

/**
 * "Install like a tool": the tarball `npm pack` makes installs globally (into a temporary
 * prefix) with nothing but its runtime dependencies, and the `agentpay` it puts on PATH works
 * from any directory. One install per run: it is the one slow test, and it buys that guarantee.
 * The pack skips `prepare` (the build): the suite runs on the build already made, and a
 * rebuild would change dist/ under the other tests' feet.
 */
const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const packageVersion = (await import('../../package.json', { with: { type: 'json' } })).default.version;

describe('the packed tarball', () => {
  it('installs into a prefix and runs --version, --sandbox check and completion bash from elsewhere', {
    timeout: 240_000,
  }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'agentpay-install-'));
    const npmEnv = {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: repoRoot, env: npmEnv });
    const tarball = join(work, `agentpay-${packageVersion}.tgz`);
    expect(existsSync(tarball)).toBe(true);
    const prefix = join(work, 'prefix');
    await run('npm', ['install', '--global', '--prefix', prefix, tarball], {
      cwd: work,
      env: npmEnv,
      timeout: 200_000,
    });

    // Only the runtime dependencies came along: no compiler, bundler or test runner.
    const installed = join(prefix, 'lib', 'node_modules', 'agentpay');
    const dependencies = readdirSync(join(installed, 'node_modules'));
    expect(dependencies).toContain('commander');
    for (const devOnly of ['typescript', 'esbuild', 'vitest', '@biomejs', 'knip'])
      expect(dependencies).not.toContain(devOnly);
    expect(existsSync(join(installed, 'src'))).toBe(false);

    // From a directory of its own, with the prefix's bin first on PATH: agentpay under its name.
    const elsewhere = join(work, 'elsewhere');
    mkdirSync(elsewhere);
    const env = isolatedEnv();
    env.PATH = `${join(prefix, 'bin')}:${env.PATH}`;
    const agentpay = (args: string[]) => run('agentpay', args, { cwd: elsewhere, env });
    expect((await agentpay(['--version'])).stdout).toBe(`${packageVersion}\n`);
    const check = JSON.parse(
      (await agentpay(['--sandbox', 'check', '--service', '101', '--account', '7011234567', '--json'])).stdout,
    ) as Record<string, unknown>;
    expect(check).toMatchObject({ state: 'success', service: '101' });
    expect((await agentpay(['completion', 'bash'])).stdout).toContain('complete -F _agentpay_complete agentpay');
    expect((await agentpay(['__complete', '--sandbox', 'check', '--service', '10'])).stdout).toBe(
      '101\tGameCoins top-up\n102\tGlobal gift card (USD)\n',
    );
  });

  it('carries every examples/ file the README and docs point to', { timeout: 60_000 }, async () => {
    const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
      env: npmEnv,
    });
    const packed = new Set((JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path));
    const documents = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((name) => join('docs', name))];
    const mentioned = new Set(
      documents.flatMap(
        (document) => readFileSync(join(repoRoot, document), 'utf8').match(/examples\/[\w./-]*[\w/]/g) ?? [],
      ),
    );
    // A bulk run's results file (`<orders>.results.csv`) is what a command writes beside its input, not a file of the package.
    const written = (path: string) => path.endsWith('.results.csv');
    const missing = [...mentioned].filter(
      (path) =>
        !written(path) && (path.endsWith('/') ? ![...packed].some((file) => file.startsWith(path)) : !packed.has(path)),
    );
    expect(mentioned.size).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
