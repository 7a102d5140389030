#!/usr/bin/env node
// Build step after tsc and build-info.mjs (docs/performance.md): packs tsc's output into one
// CommonJS file, dist/agentpay.cjs, which bin/agentpay.js runs (dist/bundle-loader.cjs), and
// makes its V8 code cache, dist/agentpay.cjs.cache, from a training run of `status <id> --json`
// against the sandbox on 127.0.0.1. tsc still builds and type-checks; esbuild only packs what
// tsc wrote, so the bundle is the checked code. Fails on anything a bundle run cannot serve.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, formatMessages } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const bundlePath = join(dist, 'agentpay.cjs');
const cachePath = `${bundlePath}.cache`;

/**
 * Left to Node's require at run time, from node_modules: large, and loaded only on slower
 * paths (a schema that must decide, a table, a scenario file, the HTTP client). Everything else
 * (our code, commander, lossless-json, chalk, enquirer) is in the bundle.
 */
const external = ['zod', 'yaml', 'cli-table3', 'undici'];

/**
 * The PostgreSQL driver, in files of its own beside the bundle (`dist/vendor/<name>.cjs`), which
 * the bundle requires only when the ledger is a postgres:// URL: every other command reads,
 * checks and loads a bundle ~150 KiB smaller (target 7 of docs/performance.md).
 */
const vendored = ['pg', 'pgpass'];
const vendorPath = (name) => join(dist, 'vendor', `${name}.cjs`);

/** In the bundle, `import pg from 'pg'` becomes a require of ./vendor/pg.cjs. */
const vendorExternal = {
  name: 'vendor-external',
  setup(plugin) {
    plugin.onResolve({ filter: new RegExp(`^(${vendored.join('|')})$`) }, ({ path }) => ({ path: `./vendor/${path}.cjs`, external: true }));
  },
};

/** Each vendored package as one CommonJS file (pg with the two changes of pgNodeOnly). */
async function writeVendored() {
  for (const name of vendored) {
    const result = await build({
      entryPoints: [name],
      outfile: vendorPath(name),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // pg's optional native binding and its Cloudflare socket are never loaded on Node.
      external: ['pg-native', 'pg-cloudflare', 'cloudflare:sockets'],
      plugins: [pgNodeOnly],
      minifyWhitespace: true,
      keepNames: true,
      logLevel: 'silent',
      absWorkingDir: root,
    });
    if (result.warnings.length > 0) {
      const text = await formatMessages(result.warnings, { kind: 'warning' });
      throw new BundleError(`esbuild warned on ${name}:\n${text.join('\n')}`);
    }
  }
}

class BundleError extends Error {}

/**
 * node-postgres asks at load whether it runs in a Cloudflare Worker by making a `Response`,
 * which loads Node's whole fetch implementation (~10 ms) on every PostgreSQL ledger command.
 * In the bundle the answer is known: Node. The build fails if pg's code no longer reads as
 * expected, so a new pg version is looked at rather than patched blindly.
 */
const pgNodeOnly = {
  name: 'pg-node-only',
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, ({ path }) => {
      const code = readFileSync(path, 'utf8');
      const probe = 'if (isCloudflareRuntime()) {';
      if (!code.includes(probe)) throw new BundleError(`${path} no longer holds "${probe}": look at pg's runtime probe again`);
      return { contents: code.replace(probe, 'if (false) {'), loader: 'js' };
    });
    // Its crypto helpers on node:crypto (scripts/bundle/pg-crypto-node.cjs says why), if they still export what ours do.
    plugin.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]crypto[\\/]utils\.js$/ }, ({ path }) => {
      const theirs = readFileSync(path, 'utf8');
      const exported = ['postgresMd5PasswordHash', 'randomBytes', 'deriveKey', 'sha256', 'hashByName', 'hmacSha256', 'md5'];
      const listed =
        /module\.exports = \{([^}]*)\}/
          .exec(theirs)?.[1]
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean) ?? [];
      if (listed.sort().join() !== [...exported].sort().join()) throw new BundleError(`${path} exports ${listed.join(', ')}: look at pg's crypto helpers again`);
      return { contents: readFileSync(join(root, 'scripts/bundle/pg-crypto-node.cjs'), 'utf8'), loader: 'js' };
    });
  },
};

// ---------------------------------------------------------------- the bundle

/** Writes dist/agentpay.cjs and its map; returns how many files went into it. */
async function writeBundle() {
  const result = await build({
    entryPoints: [join(dist, 'main.js')],
    outfile: bundlePath,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external,
    plugins: [vendorExternal],
    // tsc's maps are chained: the bundle's map points into src/*.ts (for stack traces, run
    // with --enable-source-maps).
    sourcemap: 'linked',
    // Without comments and indentation the file is ~30% smaller and all ASCII (some packages'
    // comments are not), which V8 keeps as a one-byte string: ~2 ms less to read, check,
    // and compile. Names stay as they are.
    minifyWhitespace: true,
    // A CommonJS file has no import.meta; cli.ts finds package.json from import.meta.url.
    define: { 'import.meta.url': 'importMetaUrl' },
    inject: [join(root, 'scripts/bundle-import-meta-url.js')],
    // Functions and classes keep the names they have in tsc's output: esbuild renames some
    // bindings (Command2, class _GatewayClient) and errors take their name from the class.
    keepNames: true,
    logLevel: 'silent',
    metafile: true,
  });
  // A warning here is a bundle that could behave differently from tsc's output (an import.meta
  // field left empty, a require esbuild cannot follow, ...).
  if (result.warnings.length > 0) {
    const text = await formatMessages(result.warnings, { kind: 'warning' });
    throw new BundleError(`esbuild warned; the bundle could behave differently from tsc's output:\n${text.join('\n')}`);
  }
  // A vm.Script, as the loader runs the bundle, cannot serve import() without an experimental
  // Node option: every lazy import must have become a call into the bundle (our modules,
  // bundled packages) or a require (the external packages, built-ins).
  const code = readFileSync(bundlePath, 'utf8');
  const dynamicImports = [...code.matchAll(/\bimport\s*\(/g)];
  if (dynamicImports.length > 0) {
    // The bundle's lines are long (whitespace is minified): each import() with what is around it.
    const lines = dynamicImports.map(({ index }) => `  ...${code.slice(Math.max(0, index - 80), index + 60)}...`);
    throw new BundleError(
      'dist/agentpay.cjs contains import(), which the bundle cannot run: import the module statically, ' +
        `require a CommonJS package, or take a built-in with process.getBuiltinModule\n${lines.join('\n')}`,
    );
  }
  return Object.keys(result.metafile.inputs).length;
}

// ---------------------------------------------------------------- the code cache

/** Runs scripts/code-cache-run.cjs to its end, at most 30 s. */
function runAgentpay(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts/code-cache-run.cjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A run must print the one transaction, found and successful, and exit 0. */
function checkStatusRun(label, run, transactionId) {
  let answer;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    answer = undefined;
  }
  if (run.code !== 0 || answer?.transactionId !== transactionId || answer?.state !== 'success') {
    throw new BundleError(`the ${label} run of \`agentpay status ${transactionId} --json\` failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  }
}

/**
 * Writes dist/agentpay.cjs.cache from a training run (a cache made after a run holds the
 * functions the run compiled, not only the top level), then checks that a normal run takes it.
 * Returns what the training run said on stderr, if anything.
 */
async function writeCodeCache() {
  const { startSandbox } = await import(join(dist, 'sandbox/server.js'));
  const { sandboxCredentials } = await import(join(dist, 'sandbox/catalogue.js'));
  const { seedPaidTransaction } = await import(join(dist, 'sandbox/state.js'));
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  const home = mkdtempSync(join(tmpdir(), 'agentpay-bundle-'));
  try {
    const { agentId, password } = sandboxCredentials;
    const transactionId = '1795289214527958198';
    seedPaidTransaction(sandbox.store, agentId, transactionId, '7011234567');
    // A clean environment: NODE_OPTIONS could set V8 flags, which are part of the cache's
    // validity; and nothing of the calling shell's config or state is read.
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      AGENTPAY_BASE_URL: sandbox.baseUrl,
      AGENTPAY_AGENT_ID: agentId,
      AGENTPAY_PASSWORD: password,
    };
    const args = ['--', 'status', transactionId, '--json'];
    const training = await runAgentpay(['train', cachePath, ...args], env);
    checkStatusRun('training', training, transactionId);
    // A run as a user's: the cache must be taken, or it is of no use.
    const check = await runAgentpay(['check', ...args], env);
    checkStatusRun('checking', check, transactionId);
    const verdict = /code cache: (\w+)\n$/.exec(check.stderr)?.[1];
    if (verdict !== 'accepted') throw new BundleError(`a normal run did not take the code cache made by the training run (${verdict ?? check.stderr})`);
    return training.stderr.trim();
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
}

try {
  // A cache never outlives the bundle it was made for (the loader checks that as well).
  rmSync(cachePath, { force: true });
  await writeVendored();
  const files = await writeBundle();
  const note = await writeCodeCache();
  const kib = (path) => `${Math.round(statSync(path).size / 1024)} KiB`;
  process.stdout.write(`bundle: dist/agentpay.cjs (${files} files, ${kib(bundlePath)}), code cache ${kib(cachePath)} from a status run\n`);
  if (note) process.stdout.write(`  ${note}\n`);
} catch (error) {
  // No cache from a failed build: the next run of bin compiles the bundle afresh.
  rmSync(cachePath, { force: true });
  if (!(error instanceof BundleError)) throw error;
  process.stderr.write(`bundle: ${error.message}\n`);
  process.exitCode = 1;
}
