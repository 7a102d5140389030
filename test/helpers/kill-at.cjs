// Preloaded by tests with `node --require` in front of bin/agentpay.js: SIGKILLs the process
// at its AGENTPAY_TEST_KILL_AT-th call that changes files (a write, an fsync, sync or not, a name made,
// moved or removed, a SQLite statement run or executed), before the call does anything, so a test can
// stop a run at any point of its work, as a crash would. Without a number it only counts, and writes
// the count to AGENTPAY_TEST_KILL_COUNT_FILE on exit.
'use strict';

const fs = require('node:fs');

const killAt = Number(process.env.AGENTPAY_TEST_KILL_AT ?? 0);
const countFile = process.env.AGENTPAY_TEST_KILL_COUNT_FILE;
const writeFileSync = fs.writeFileSync;
let calls = 0;

for (const name of [
  'writeSync',
  'fsyncSync',
  'fsync',
  'renameSync',
  'linkSync',
  'unlinkSync',
  'rmdirSync',
  'rmSync',
  'mkdirSync',
]) {
  const original = fs[name];
  fs[name] = function counted(...args) {
    calls++;
    if (calls === killAt) process.kill(process.pid, 'SIGKILL');
    return original.apply(this, args);
  };
}

const { DatabaseSync, StatementSync } = require('node:sqlite');
for (const [prototype, name] of [
  [DatabaseSync.prototype, 'exec'],
  [StatementSync.prototype, 'run'],
]) {
  const original = prototype[name];
  prototype[name] = function counted(...args) {
    calls++;
    if (calls === killAt) process.kill(process.pid, 'SIGKILL');
    return original.apply(this, args);
  };
}

if (countFile) process.on('exit', () => writeFileSync(countFile, String(calls)));
