// A process taking the lock at $LOCK_PATH $LOCK_ROUNDS times, each time writing "in <pid>" and,
// after a short hold, "out <pid>" to $LOCK_LOG (one append each), for lock-file.test.ts. With
// $LOCK_HANG set, it takes the lock once and waits to be killed holding it (a stale lock).
import { appendFileSync } from 'node:fs';
import { LockBusy, lockNow } from '../../dist/lock-file.js';

const { LOCK_PATH: path, LOCK_LOG: log, LOCK_ROUNDS: rounds = '20', LOCK_HANG: hang } = process.env;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The lock, tried again every few ms for up to 20 s: the turns of a queue of processes. */
async function lockSoon() {
  for (const until = Date.now() + 20_000; ; await pause(2)) {
    const lock = lockNow(path);
    if (!(lock instanceof LockBusy) || Date.now() > until) return lock;
  }
}
for (let round = 0; round < Number(rounds); round++) {
  const lock = await lockSoon();
  if (!('release' in lock)) throw new Error(`lock busy: ${JSON.stringify(lock.holder)}`);
  appendFileSync(log, `in ${process.pid}\n`);
  if (hang) {
    process.stdout.write('held\n');
    await pause(60_000);
  }
  await pause(Math.random() * 3);
  appendFileSync(log, `out ${process.pid}\n`);
  lock.release();
}
