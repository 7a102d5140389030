import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { sandboxWithEnv } from '../helpers/gateway-env.js';
import { runProbed } from '../helpers/probed-run.js';

const distPath = fileURLToPath(new URL('../../dist/', import.meta.url));
const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const buildInfo = JSON.parse(readFileSync(new URL('../../dist/build-info.json', import.meta.url), 'utf8')) as {
  version: string;
  help: { width: number; text: string };
};

/** The built-ins this Node loads for a bare CommonJS script, the floor for what a run adds. */
function bootstrapBuiltins(): string[] {
  const script = 'process.stdout.write(JSON.stringify(process.moduleLoadList))';
  return JSON.parse(execFileSync(process.execPath, ['--input-type=commonjs', '-e', script], { encoding: 'utf8' })) as string[];
}

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

describe('start-up of a command: one bundled file', () => {
  it('`status <id> --json` against a local gateway: no ES module, our code from the bundle alone, no package kept for slower paths', async () => {
    const { sandbox, env } = await sandboxWithEnv();
    try {
      const { result, report } = await runProbed(['status', '404404', '--json'], { env });
      expect(result.code).toBe(3); // not found (unknown): a real exchange with the gateway took place
      expect(jsonLines(result.stdout)).toEqual([expect.objectContaining({ transactionId: '404404', state: 'unknown' })]);
      expect(report.codeCache).toBe('accepted');
      // Node's ES module loader never started: dist/main.js and its ~35 modules are not loaded.
      // (Node 24 loads the loader's modules at bootstrap, for any script: none beyond those.)
      const esmLoader = (builtins: readonly string[]) => builtins.filter((name) => name.includes('internal/modules/esm/module_job'));
      expect(esmLoader(report.builtins)).toEqual(esmLoader(bootstrapBuiltins()));
      // Of dist/, only the two CommonJS files bin requires; the bundle itself is a vm.Script.
      const fromDist = report.required.filter((path) => path.startsWith(distPath)).map((path) => path.slice(distPath.length));
      expect(fromDist.sort()).toEqual(['bundle-loader.cjs', 'cached-answer.cjs']);
      // No package at all: commander, lossless-json and chalk are in the bundle; zod, yaml and
      // cli-table3 stay unloaded; undici carries batches and proxies only.
      expect(packagesIn(report.required)).toEqual([]);
      expect(report.builtins.filter((name) => name === 'NativeModule http2')).toEqual([]);
      // commander's child_process (for subcommands that are programs) is loaded only if used: never here.
      expect(report.builtins.filter((name) => name === 'NativeModule child_process')).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('`status --from-file` (a batch) loads the part of undici it uses, bundled into dist/vendor, and no npm package; its code cache is learned once, then accepted', async () => {
    const { sandbox, env } = await sandboxWithEnv();
    try {
      const ids = join(env.HOME!, 'ids.txt');
      writeFileSync(ids, '404404\n404405\n');
      const batch = () => runProbed(['status', '--from-file', ids, '--json'], { env });
      await batch();
      const { result, report } = await batch();
      expect(result.code).toBe(3);
      expect(jsonLines(result.stdout)).toHaveLength(2);
      expect(packagesIn(report.required)).toEqual([]);
      expect(report.required.filter((path) => path.endsWith('/dist/vendor/undici.cjs'))).toHaveLength(1);
      // Only undici's dispatchers: not its fetch, WebSocket or caches, which would load Node's own
      // copy of undici, web streams, zlib and worker_threads (~60 ms of a bulk run's CPU); nor its
      // HTTP/2 client, which would load node:http2 and node:tls for an http:// gateway.
      const heavy = ['NativeModule internal/deps/undici/undici', 'NativeModule internal/webstreams/readablestream', 'NativeModule zlib', 'NativeModule worker_threads'];
      heavy.push('NativeModule http2', 'NativeModule tls');
      expect(report.builtins.filter((name) => heavy.includes(name))).toEqual([]);
      // Learned under the V8 flag undici needs (gateway/wasm-tier.ts), so every later run can take it.
      expect(report.bundles).toEqual([
        { bundle: 'agentpay.cjs', codeCache: 'accepted' },
        { bundle: 'undici.bundle.cjs', codeCache: 'accepted' },
      ]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('a bulk run and V8', () => {
  it("sets TurboFan's budget for its exchanges only: undici's code cache it learns is taken by a batch and by the next bulk run, and V8 knows the flag", async () => {
    const { sandbox, env } = await sandboxWithEnv();
    // undici's cache in a directory of this test's own: none at first.
    const vendorCaches = mkdtempSync(join(tmpdir(), 'agentpay-vendor-caches-'));
    try {
      let round = 0;
      const bulk = () => {
        round++;
        const orders = join(env.HOME!, `orders-${round}.csv`);
        writeFileSync(orders, `key,service,account,invoice-id\nK1,101,70112345${round}1,5001\nK2,101,70112345${round}2,5002\n`);
        return runProbed(['pay', '--from-file', orders, '--yes', '--json'], { env, vendorCaches });
      };
      const ids = join(env.HOME!, 'ids.txt');
      writeFileSync(ids, '404404\n');
      const batch = () => runProbed(['status', '--from-file', ids, '--json'], { env, vendorCaches });
      // The first bulk run learns undici's cache at its exit: under the flags undici was loaded with, or no later run takes it.
      const runs = [await bulk(), await bulk(), await batch(), await bulk()];
      for (const { result } of runs) expect(result.stderr).not.toMatch(/unrecognized flag|Try --help/);
      expect(runs.map(({ result }) => result.code)).toEqual([0, 0, 3, 0]);
      const undiciCache = ({ report }: (typeof runs)[number]) => report.bundles.find(({ bundle }) => bundle === 'undici.bundle.cjs')?.codeCache;
      expect(runs.map(undiciCache)).toEqual(['missing', 'accepted', 'accepted', 'accepted']);
    } finally {
      await sandbox.close();
      rmSync(vendorCaches, { recursive: true, force: true });
    }
  });
});

/** The npm packages among required files, in order of first load. */
function packagesIn(required: readonly string[]): string[] {
  return [...new Set(required.map((path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter((name) => name !== undefined))];
}
