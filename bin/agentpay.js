#!/usr/bin/env node
// The shebang shim (CommonJS, bin/package.json): Node's compile cache, then the program, the
// one-file bundle the build writes (scripts/bundle.mjs), which reads the command line itself.
// A shell runs `agentpay __complete ...` at every Tab: that alone is answered by a small file
// from the definition the build wrote (dist/completion.json), without loading the program.
// enableCompileCache is Node 22.1 and later; Node 20 compiles the bundle at every start.
'use strict';

require('node:module').enableCompileCache?.();
const dist = `${__dirname}/../dist`;
const argv = process.argv.slice(2);
const answered =
  argv[0] === '__complete' &&
  require(`${dist}/completion.cjs`).answerFromBuild(`${dist}/completion.json`, argv, process.stdout, process.env);
if (!answered) require(`${dist}/agentpay.cjs`);
