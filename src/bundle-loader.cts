import fs = require('node:fs');
import Module = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

/*
 * Runs the CLI from dist/agentpay.cjs, the whole program in one CommonJS file (esbuild packs
 * tsc's output into it, scripts/bundle.mjs), compiled with the V8 code cache the build made
 * beside it (dist/agentpay.cjs.cache). Loading our ~35 ES modules, commander and lossless-json
 * one by one through Node's ES module loader cost ~20 ms, and compiling each function on its
 * first call ~10 ms more, of a single `status` (docs/performance.md). This file is CommonJS for
 * the same reason as cached-answer.cts: bin/agentpay.js calls it before Node's ES module loader
 * has started, and with the bundle it never starts.
 *
 * The cache file is a SHA-256 digest of the Node build (version, arch, V8 version), the bundle
 * and V8's data together (32 bytes), then V8's data (`script.createCachedData()`). V8 itself
 * checks only that its data comes from the same V8 version and flags and from a source of the
 * same length; it does not check the data for damage (a changed byte can crash the process).
 * So the digest is checked first, ~1 ms: a cache made for another build of the bundle or
 * another Node, or damaged, is not given to V8. In that case, and when V8 rejects the cache
 * (other V8 flags), the bundle is compiled as usual, only slower. Nothing is written at run
 * time; only the build's training run writes the cache.
 * (V8 keeps the script name the cache was made under: a dist/ moved after its build shows the
 * build's path in stack traces.)
 */

/** How the code cache went for this run. */
type CodeCacheUse =
  /** V8 took the cache. */
  | 'accepted'
  /** No cache file (or not readable). */
  | 'missing'
  /** The file is not a cache of this bundle: made for another build, or damaged. Not used. */
  | 'mismatched'
  /** V8 refused it: another Node or V8 version, or other V8 flags. */
  | 'rejected'
  /** Not looked at: under --enable-source-maps the bundle is loaded by Node's own require. */
  | 'unused';

interface BundleRun {
  codeCache: CodeCacheUse;
  /** What the bundle exported (module.exports). */
  exports: unknown;
}

interface BundleOptions {
  /** The bundle; dist/agentpay.cjs beside this file by default. */
  bundlePath?: string;
  /** Its code cache; the bundle's path with `.cache` added by default. */
  cachePath?: string;
  /**
   * For the build's training run only (scripts/bundle.mjs): when the process exits, write the
   * code cache of everything the run compiled to this path. The CLI never sets it.
   */
  writeCacheOnExit?: string;
  /**
   * When its cache is missing or not accepted, write one when the process exits, of what this
   * run compiled, if the directory lets us (as Node's own compile cache does): the vendored
   * PostgreSQL driver (dist/vendor) learns its cache on its first use instead of at build time,
   * which has no database to train against.
   */
  learnCache?: boolean;
}

const digestBytes = 32;

function digestOf(bundle: Buffer, v8Data: Buffer): Buffer {
  // node:crypto is loaded by every gateway command anyway (the password's MD5 is a secret too).
  // The Node build is in it too: patch releases share a V8 version, which is all V8 checks.
  const runtime = `${process.version} ${process.arch} ${process.versions.v8}`;
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(runtime).update(bundle).update(v8Data).digest();
}

/** V8's data from the cache file, or why there is none to give it. */
function readCodeCache(cachePath: string, bundle: Buffer): Buffer | 'missing' | 'mismatched' {
  let file: Buffer;
  try {
    file = fs.readFileSync(cachePath);
  } catch {
    return 'missing';
  }
  if (file.length <= digestBytes) return 'mismatched';
  const v8Data = file.subarray(digestBytes);
  return digestOf(bundle, v8Data).equals(file.subarray(0, digestBytes)) ? v8Data : 'mismatched';
}

/** writeCodeCache, giving up silently: a cache that cannot be written is only a slower next start. */
function tryWriteCodeCache(cachePath: string, bundle: Buffer, script: vm.Script): void {
  try {
    writeCodeCache(cachePath, bundle, script);
  } catch {
    // a read-only installation, a full disk: the next run compiles afresh
  }
}

function writeCodeCache(cachePath: string, bundle: Buffer, script: vm.Script): void {
  const v8Data = script.createCachedData();
  const temporary = `${cachePath}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, Buffer.concat([digestOf(bundle, v8Data), v8Data]));
    fs.renameSync(temporary, cachePath);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** Compiles and runs the bundle as Node would run a CommonJS file of that name. */
function runBundle(options: BundleOptions = {}): BundleRun {
  const filename = path.resolve(options.bundlePath ?? path.join(__dirname, 'agentpay.cjs'));
  if (process.sourceMapsEnabled && options.writeCacheOnExit === undefined) {
    // Node maps stack traces through the bundle's source map (to src/*.ts) only for files its
    // own loader compiled, not for a vm.Script: whoever asks for source maps gets them.
    return { codeCache: 'unused', exports: require(filename) };
  }
  const bundle = fs.readFileSync(filename);
  const cachePath = options.cachePath ?? `${filename}.cache`;
  const cache = readCodeCache(cachePath, bundle);
  const script = new vm.Script(Module.wrap(bundle.toString('utf8')), {
    filename,
    ...(typeof cache === 'string' ? {} : { cachedData: cache }),
  });
  const codeCache: CodeCacheUse = typeof cache === 'string' ? cache : script.cachedDataRejected === true ? 'rejected' : 'accepted';
  const { writeCacheOnExit } = options;
  if (writeCacheOnExit !== undefined) process.once('exit', () => writeCodeCache(writeCacheOnExit, bundle, script));
  else if (options.learnCache && codeCache !== 'accepted') process.once('exit', () => tryWriteCodeCache(cachePath, bundle, script));
  const bundleModule = { exports: {}, id: filename, filename, loaded: false };
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: typeof bundleModule, __filename: string, __dirname: string) => void;
  wrapper.call(bundleModule.exports, bundleModule.exports, Module.createRequire(filename), bundleModule, filename, path.dirname(filename));
  bundleModule.loaded = true;
  return { codeCache, exports: bundleModule.exports };
}

export = { runBundle };
