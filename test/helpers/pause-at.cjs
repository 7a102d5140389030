// Preloaded by tests with `node --require`: freezes the process at one point of its work, as
// SIGSTOP there would, until the test lets it go on. AGENTPAY_TEST_PAUSE names the point:
// - `writer-after-fsync`: a journal writer armed by globalThis.agentpayTestArm(), after its
//   line is written and fsynced, before it looks whether the journal is still its file;
// - `compact-after-cut`: a compaction, once it renamed the journal into its cut;
// - `compact-after-length`: a compaction, once the cut's length is fixed;
// - `compact-after-archive`: a compaction, once it published an archive file (before the open records).
// At the point it writes <AGENTPAY_TEST_PAUSE_DIR>/<writer|compact>.paused and waits for
// <writer|compact>.go there.
'use strict';

const fs = require('node:fs');

const directory = process.env.AGENTPAY_TEST_PAUSE_DIR;
const point = process.env.AGENTPAY_TEST_PAUSE;
const { existsSync, fstatSync, fsyncSync, linkSync, renameSync, statSync, writeFileSync } = fs;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function pause(tag) {
  writeFileSync(`${directory}/${tag}.paused`, '');
  while (!existsSync(`${directory}/${tag}.go`)) sleep(5);
}

let armed = false;
let afterFsync = false;
globalThis.agentpayTestArm = () => {
  armed = true;
};
fs.fsyncSync = function paused(...args) {
  const result = fsyncSync.apply(this, args);
  afterFsync = true;
  return result;
};
// The writer's look is a stat of the journal's path (its file's identity it read at open).
const pausedLook = (stat) =>
  function paused(...args) {
    if (point === 'writer-after-fsync' && armed && afterFsync) {
      armed = false;
      pause('writer');
    }
    afterFsync = false;
    return stat.apply(this, args);
  };
fs.fstatSync = pausedLook(fstatSync);
fs.statSync = pausedLook(statSync);
fs.renameSync = function paused(from, to) {
  const result = renameSync.call(this, from, to);
  if (point === 'compact-after-cut' && String(to).endsWith('/journal')) pause('compact');
  return result;
};
let archived = false;
fs.linkSync = function paused(from, to) {
  const result = linkSync.call(this, from, to);
  if (point === 'compact-after-length' && String(to).endsWith('.length')) pause('compact');
  if (point === 'compact-after-archive' && !archived && String(to).endsWith('.jsonl')) {
    archived = true;
    pause('compact');
  }
  return result;
};
require('node:module').syncBuiltinESMExports();
