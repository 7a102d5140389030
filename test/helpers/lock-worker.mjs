// A process taking the lock at $LOCK_PATH $LOCK_ROUNDS times, each time writing "in <pid>" and,
// after a short hold, "out <pid>" to $LOCK_LOG (one append each), for lock-file.test.ts. With
// $LOCK_HANG set, it takes the lock once and waits to be killed holding it (a stale lock).
import { appendFileSync } from 'node:fs';
import { LockBusy, lockNow } from '../../dist/lock-file.js';

const { LOCK_PATH: path, LOCK_LOG: log, LOCK_ROUNDS: rounds = '20', LOCK_HANG: hang } = process.env;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (let round = 0; round < Number(rounds); round++) {
  // A bulk run refuses a busy lock; to take turns, this one asks again until it gets it.
  let lock = lockNow(path);
  for (const until = Date.now() + 20_000; lock instanceof LockBusy; lock = lockNow(path)) {
    if (Date.now() > until) throw new Error(`lock busy: ${JSON.stringify(lock.holder)}`);
    await pause(1 + Math.random() * 2);
  }
  appendFileSync(log, `in ${process.pid}\n`);
  if (hang) {
    process.stdout.write('held\n');
    await pause(60_000);
  }
  await pause(Math.random() * 3);
  appendFileSync(log, `out ${process.pid}\n`);
  lock.release();
}
