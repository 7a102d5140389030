#!/usr/bin/env node
// Shebang shim, CommonJS (bin/package.json): `--version` and `--help` are answered from the
// build's cache before Node's ES module loader starts (dist/cached-answer.cjs); everything
// else runs the one-file bundle dist/agentpay.cjs with its build-time V8 code cache
// (dist/bundle-loader.cjs, docs/performance.md).
'use strict';

if (!require('../dist/cached-answer.cjs').answerFromCache(process.argv.slice(2), process.stdout)) require('../dist/bundle-loader.cjs').runBundle();
