#!/usr/bin/env node
// Shebang shim, CommonJS (bin/package.json): `--version` and `--help` are answered from the
// build's cache before Node's ES module loader starts (dist/cached-answer.cjs); everything
// else is dist/main.js.
'use strict';

if (!require('../dist/cached-answer.cjs').answerFromCache(process.argv.slice(2), process.stdout)) import('../dist/main.js');
