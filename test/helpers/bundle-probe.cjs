// Preloaded by tests with `node --require` in front of bin/agentpay.js (a Node option, not a
// V8 flag: the code cache stays valid). It reports, when the process exits, to the file named
// by $BUNDLE_PROBE_REPORT: how bin's run of the bundle went (its code cache), every file loaded
// through require, the Node built-ins loaded (process.moduleLoadList), and each bundle run
// (bin's, then any of dist/vendor) with its code cache. With $BUNDLE_PROBE_CACHE, bin's run
// reads its code cache from that file instead of dist's; with $BUNDLE_PROBE_VENDOR_CACHES, the
// vendored bundles read and learn theirs in that directory.
// The CLI itself reads none of these variables.
'use strict';

const { writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const loader = require('../../dist/bundle-loader.cjs');

const runBundle = loader.runBundle;
const runs = [];
loader.runBundle = (options = {}) => {
  const vendorCaches = process.env.BUNDLE_PROBE_VENDOR_CACHES;
  const vendorCache = vendorCaches && options.bundlePath ? join(vendorCaches, `${basename(options.bundlePath)}.cache`) : undefined;
  const cachePath = runs.length === 0 ? process.env.BUNDLE_PROBE_CACHE : vendorCache;
  const run = runBundle(cachePath ? { ...options, cachePath } : options);
  runs.push({ bundle: basename(options.bundlePath ?? 'agentpay.cjs'), codeCache: run.codeCache });
  return run;
};
process.on('exit', () => {
  const report = { codeCache: runs[0]?.codeCache ?? null, bundles: runs, required: Object.keys(require.cache), builtins: process.moduleLoadList };
  writeFileSync(process.env.BUNDLE_PROBE_REPORT, JSON.stringify(report));
});
