#!/usr/bin/env node
// The shebang shim (CommonJS, bin/package.json): an older Node is told so in one line before the
// bundle (which it may not even parse) loads; then Node's compile cache and the program, the one
// file the build writes (scripts/bundle.mjs). A shell's Tab (`agentpay __complete ...`) alone is
// answered by a small file from the definition the build wrote (dist/completion.json).
'use strict';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 21) || (major === 24 && minor < 5)) {
  // The range of package.json "engines"; the catalogues are in the bundle, so this line is English.
  process.stderr.write(
    `agentpay: needs Node.js 22 (22.21 or later), 24 (24.5 or later) or 26; this is Node.js ${process.version}\n`,
  );
  process.exitCode = 2;
} else {
  require('node:module').enableCompileCache();
  const dist = `${__dirname}/../dist`;
  const argv = process.argv.slice(2);
  const answered =
    argv[0] === '__complete' &&
    require(`${dist}/completion.cjs`).answerFromBuild(`${dist}/completion.json`, argv, process.stdout, process.env);
  if (!answered) require(`${dist}/agentpay.cjs`);
}
