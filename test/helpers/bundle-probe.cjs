// Preloaded by tests with `node --require` in front of bin/agentpay.js (a Node option, not a
// V8 flag: the code cache stays valid). It reports, when the process exits, to the file named
// by $BUNDLE_PROBE_REPORT: how bin's run of the bundle went (its code cache), every file loaded
// through require, and the Node built-ins loaded (process.moduleLoadList). With
// $BUNDLE_PROBE_CACHE, bin's run reads its code cache from that file instead of dist's.
// The CLI itself reads neither variable.
'use strict';

const { writeFileSync } = require('node:fs');
const loader = require('../../dist/bundle-loader.cjs');

const runBundle = loader.runBundle;
let run;
loader.runBundle = (options = {}) => {
  const cachePath = process.env.BUNDLE_PROBE_CACHE;
  run = runBundle(cachePath ? { ...options, cachePath } : options);
  return run;
};
process.on('exit', () => {
  const report = { codeCache: run?.codeCache ?? null, required: Object.keys(require.cache), builtins: process.moduleLoadList };
  writeFileSync(process.env.BUNDLE_PROBE_REPORT, JSON.stringify(report));
});
