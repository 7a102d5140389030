#!/usr/bin/env node
// One run of agentpay for scripts/bundle.mjs, through the loader bin/agentpay.js uses
// (dist/bundle-loader.cjs). CommonJS, as bin/agentpay.js is, so the process is started the
// same way as a user's.
//
//   node scripts/code-cache-run.cjs train <cache path> -- <agentpay arguments> [';;' <more arguments> ...]
//       the training run: writes the V8 code cache of everything the run compiled, at exit; the
//       command lines after the first run one after another in the same process (the bundle's
//       main), so the cache holds what each of them compiles
//   node scripts/code-cache-run.cjs check -- <agentpay arguments>
//       a normal run; its last line on stderr says how the code cache went ("code cache: accepted")
'use strict';

const path = require('node:path');
const { runBundle } = require('../dist/bundle-loader.cjs');

const separator = process.argv.indexOf('--');
const [mode, cachePath] = process.argv.slice(2, separator);
if (separator === -1 || !(mode === 'check' || (mode === 'train' && cachePath))) {
  process.stderr.write('usage: code-cache-run.cjs train <cache path> -- <args> | check -- <args>\n');
  process.exit(2);
}
const commandLines = [[]];
for (const arg of process.argv.slice(separator + 1)) {
  if (arg === ';;') commandLines.push([]);
  else commandLines.at(-1).push(arg);
}
// What the bundle reads as its command line, as if bin/agentpay.js had been started with it.
process.argv = [process.argv[0], path.join(__dirname, '../bin/agentpay.js'), ...commandLines.shift()];

if (mode === 'train') {
  // V8's flags are part of a code cache's validity: a run that set one would write a cache every
  // normal run refuses. agentpay sets none; the check run after this one fails the build if a
  // change makes it.
  const { exports } = runBundle({ writeCacheOnExit: cachePath });
  // Each next command once the one before has left nothing to wait for.
  process.on('beforeExit', () => {
    const next = commandLines.shift();
    if (next !== undefined) exports.main(next);
  });
} else {
  const { codeCache } = runBundle();
  process.on('exit', () => process.stderr.write(`code cache: ${codeCache}\n`));
}
