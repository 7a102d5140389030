#!/usr/bin/env node
// Shebang shim, CommonJS (bin/package.json): `--version` and `--help` are answered from the
// build's cache before Node's ES module loader starts (dist/cached-answer.cjs), and so is a
// shell's Tab, `__complete` (dist/completion-answer.cjs); everything else runs the one-file
// bundle dist/agentpay.cjs with its build-time V8 code cache (dist/bundle-loader.cjs,
// docs/performance.md).
'use strict';

const argv = process.argv.slice(2);
const answered =
  argv[0] === '__complete'
    ? require('../dist/completion-answer.cjs').answerFromBuild(`${__dirname}/../dist/completion.json`, argv, process.stdout, process.env)
    : require('../dist/cached-answer.cjs').answerFromCache(argv, process.stdout);
if (!answered) require('../dist/bundle-loader.cjs').runBundle();
