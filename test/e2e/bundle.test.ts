import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../helpers/cli.js';
import { intent } from '../helpers/journal-lines.js';
import { defaultLedger, seedLedger } from '../helpers/ledger-file.js';

const code = readFileSync(fileURLToPath(new URL('../../dist/agentpay.cjs', import.meta.url)), 'utf8');

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
});
