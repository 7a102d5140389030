import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { seedPaidTransaction } from '../../src/sandbox/state.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { runProbed } from '../helpers/probed-run.js';

const bundlePath = fileURLToPath(new URL('../../dist/agentpay.cjs', import.meta.url));
const bundle = readFileSync(bundlePath);
const cache = readFileSync(`${bundlePath}.cache`);
const transactionId = '1795289214527958198';

let sandbox: RunningSandbox;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'agentpay-bundle-test-'));

beforeAll(async () => {
  ({ sandbox, env } = await sandboxWithEnv());
  const { agentId } = sandboxCredentials;
  seedPaidTransaction(sandbox.store, agentId, transactionId, '7011234567');
});
afterAll(async () => {
  await sandbox.close();
});

/** The answer every run must give, whatever became of the code cache. */
function expectTheTransaction(result: { code: number | null; stdout: string; stderr: string }): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ transactionId, type: 'Status', status: '10', state: 'success', amount: '100.00', message: 'Успех' })]);
}

const thisNode = `${process.version} ${process.arch} ${process.versions.v8}`;

/** A cache file laid out as the build writes it: SHA-256 of Node build, bundle and V8's data, then V8's data. */
function cacheFile(forBundle: Buffer, v8Data: Buffer, node = thisNode): Buffer {
  return Buffer.concat([createHash('sha256').update(node).update(forBundle).update(v8Data).digest(), v8Data]);
}

function writeCache(name: string, content: Buffer): string {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
}

describe('bin/agentpay.js runs the one-file bundle with its build-time code cache', () => {
  it('status <id> --json answers, and V8 takes the code cache the build made', async () => {
    const { result, report } = await runProbed(['status', transactionId, '--json'], { env });
    expectTheTransaction(result);
    expect(report.codeCache).toBe('accepted');
  });

  it('without a usable cache file it compiles the bundle and gives the same answer', async () => {
    const v8Data = cache.subarray(32);
    const changed = Buffer.from(v8Data);
    for (let i = 0; i < 64; i++) changed[Math.floor(changed.length / 2) + i]! ^= 0x5a;
    const cases: [string, string][] = [
      ['missing', join(work, 'no-such.cache')],
      // V8 does not check its data for damage: given this one, it would crash the process.
      ['mismatched', writeCache('damaged.cache', Buffer.concat([cache.subarray(0, 32), changed]))],
      ['mismatched', writeCache('truncated.cache', cache.subarray(0, 20))],
      // Made for another build of the bundle: V8 checks only the source's length.
      ['mismatched', writeCache('other-build.cache', cacheFile(Buffer.concat([bundle, Buffer.from('\n')]), v8Data))],
      // Made under another Node (patch releases can share a V8 version, all V8 would check).
      ['mismatched', writeCache('other-node.cache', cacheFile(bundle, v8Data, `v20.0.0 ${process.arch} ${process.versions.v8}`))],
      // Intact and ours, but not V8's: V8 refuses it (as it does one made under other V8 flags).
      ['rejected', writeCache('not-v8.cache', cacheFile(bundle, Buffer.alloc(4096, 7)))],
    ];
    for (const [expected, cachePath] of cases) {
      const { result, report } = await runProbed(['status', transactionId, '--json'], { env, cachePath });
      expectTheTransaction(result);
      expect({ cachePath, codeCache: report.codeCache }).toEqual({ cachePath, codeCache: expected });
    }
  });

  it("V8 flags other than the build's (here from NODE_OPTIONS) void the cache: same answer without it", async () => {
    // Not a heap size: since Node 24 V8 no longer counts --max-old-space-size and the like.
    const { result, report } = await runProbed(['status', transactionId, '--json'], { env: { ...env, NODE_OPTIONS: '--stack-trace-limit=20' } });
    expectTheTransaction(result);
    expect(report.codeCache).toBe('rejected');
  });

  it('under --enable-source-maps stack traces point into src/*.ts', async () => {
    // Only an internal error has a stack trace (under --verbose): one injected where the journal is read.
    const fault = fileURLToPath(new URL('../helpers/internal-fault.cjs', import.meta.url));
    // A journal to read: a missing or empty one is not read at all.
    const journal = join(env.XDG_STATE_HOME!, 'agentpay', 'journal.jsonl');
    mkdirSync(dirname(journal), { recursive: true });
    const intent = {
      kind: 'intent',
      transactionId: '1',
      gateway: 'sandbox',
      agentId: '1001',
      service: '201',
      account: 'a',
      amount: '1.00',
      currency: 'KZT',
      invoiceId: null,
      at: '2026-11-23T00:00:00.000Z',
    };
    appendFileSync(journal, `${JSON.stringify(intent)}\n`);
    const result = await runCli(['history', '--verbose'], { env, nodeArgs: ['--enable-source-maps', '--require', fault] });
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/at chunksOf \(\S*src\/ledger\/file\/reader\.ts:\d+:\d+\)/);
  });
});

describe('the bundle, dist/agentpay.cjs', () => {
  const code = bundle.toString('utf8');

  it('leaves the PostgreSQL driver and undici to dist/vendor, required only for a postgres ledger, a batch or a proxy', () => {
    expect(code.includes('"node_modules/pg/')).toBe(false);
    expect(code.includes('"node_modules/undici/')).toBe(false);
    expect(code.match(/require\("\.\/vendor\/[a-z]+\.cjs"\)/g)?.sort()).toEqual(['require("./vendor/pg.cjs")', 'require("./vendor/pgpass.cjs")', 'require("./vendor/undici.cjs")']);
  });

  it('holds no import(): a vm.Script cannot serve one (scripts/bundle.mjs refuses to build it)', () => {
    // Compared as a list of matches, so that a failure does not print the whole bundle.
    expect(code.match(/\bimport\s*\([^)]{0,80}/g)).toBeNull();
  });

  it('leaves zod, yaml, cli-table3 and undici to require from node_modules; holds commander, lossless-json, chalk and enquirer', () => {
    // esbuild names each file it wraps by its path, so a bundled package shows as node_modules/<name>/.
    const bundled = (name: string) => code.includes(`"node_modules/${name}/`);
    const names = ['zod', 'yaml', 'cli-table3', 'undici', 'commander', 'lossless-json', 'chalk', 'enquirer'];
    expect(Object.fromEntries(names.map((name) => [name, bundled(name)]))).toEqual({
      zod: false,
      yaml: false,
      'cli-table3': false,
      undici: false,
      commander: true,
      'lossless-json': true,
      chalk: true,
      enquirer: true,
    });
  });
});
