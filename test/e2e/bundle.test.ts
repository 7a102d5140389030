import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { intent } from '../helpers/journal-lines.js';
import { defaultLedger, seedLedger } from '../helpers/ledger-file.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const code = readFileSync(join(root, 'dist/agentpay.cjs'), 'utf8');

describe('the bundle, dist/agentpay.cjs', () => {
  it('under --enable-source-maps stack traces point into src/*.ts', async () => {
    const env = isolatedEnv();
    // Only an internal error has a stack trace (under --verbose): one injected where the ledger's rows are read.
    const fault = fileURLToPath(new URL('../helpers/internal-fault.cjs', import.meta.url));
    // A ledger with a payment in it, for history to read.
    await seedLedger(defaultLedger(env), [intent('1', '2026-11-23T00:00:00.000Z')]);
    const result = await runCli(['history', '--verbose'], {
      env,
      nodeArgs: ['--enable-source-maps', '--require', fault],
    });
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/at Statements\.all \(\S*src\/ledger\/sqlite\/query\.ts:\d+:\d+\)/);
  });

  it('leaves zod, yaml and pg to require from node_modules; holds commander, lossless-json, chalk and enquirer', () => {
    // esbuild names each file it wraps by its path, so a bundled package shows as node_modules/<name>/.
    const bundled = (name: string) => code.includes(`node_modules/${name}/`);
    const names = ['zod', 'yaml', 'pg', 'commander', 'lossless-json', 'chalk', 'enquirer'];
    expect(Object.fromEntries(names.map((name) => [name, bundled(name)]))).toEqual({
      zod: false,
      yaml: false,
      pg: false,
      commander: true,
      'lossless-json': true,
      chalk: true,
      enquirer: true,
    });
  });

  it('--version and check read no package.json: one broken beside the install stops neither', () => {
    const env = isolatedEnv();
    const install = join(env.HOME!, 'install');
    cpSync(join(root, 'bin'), join(install, 'bin'), { recursive: true });
    for (const file of ['agentpay.cjs', 'completion.cjs', 'completion.json'])
      cpSync(join(root, 'dist', file), join(install, 'dist', file));
    symlinkSync(join(root, 'node_modules'), join(install, 'node_modules'));
    writeFileSync(join(install, 'package.json'), '{"name": "agentpay", "version": ');
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [join(install, 'bin/agentpay.js'), ...args], { env, encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(run('--version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    const check = run('--sandbox', 'check', '--service', '101', '--account', '7011234567', '--currency', 'KZT');
    expect([check.status, check.stderr]).toEqual([0, expect.stringContaining('4 vouchers for service 101')]);
  });
});
