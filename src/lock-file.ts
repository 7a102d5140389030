import { randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { errnoCodeOf } from './errors.js';
import { makeDirectory } from './journal/durable.js';

/**
 * A lock file: who holds a file (the journal around a check-and-append, an order file's results
 * for a bulk run's length), as a file created with O_EXCL next to it. It names its holder (pid,
 * host, since), so a refusal can say who, and a lock left by a process that died (kill -9, a
 * power cut) is taken over: on this host, its pid is gone, or is another process now (its start
 * time differs, or the machine booted since).
 *
 * Node has no flock(2); an O_EXCL create is what git's `index.lock` and most lock libraries use.
 */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
  /** Tells one holding from another: a takeover checks it moved the stale lock it judged, not a fresh one. */
  token: string;
  /** Linux: the boot and the process's start (clock ticks since boot), so a reused pid is not taken for the holder. */
  boot?: string;
  start?: string;
}

export interface HeldLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock if it is still this holder's (a lock taken over meanwhile is left alone). */
  release(): void;
}

/** The lock was held by a live process the whole time allowed. */
export class LockBusy {
  constructor(
    readonly path: string,
    readonly holder: LockHolder | undefined,
  ) {}
}

/** A lock file that does not parse is being written now, or was torn by a crash: after this long, the latter. */
const unreadableStaleMs = 5_000;

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const bootId = (): string | undefined => readProc('/proc/sys/kernel/random/boot_id')?.trim();

/** Field 22 of /proc/PID/stat (after the command's closing parenthesis, which may itself hold spaces). */
function processStart(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return errnoCodeOf(error) === 'EPERM';
  }
}

function thisHolder(): LockHolder {
  const boot = bootId();
  const start = processStart(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomUUID(),
    ...(boot === undefined ? {} : { boot }),
    ...(start === undefined ? {} : { start }),
  };
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string' || typeof value.since !== 'string' || typeof value.token !== 'string') return undefined;
    return value as LockHolder;
  } catch {
    return undefined;
  }
}

/** Whether a holder is gone for sure. One on another host cannot be judged from here: it is taken as alive. */
function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  const boot = bootId();
  if (holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return true;
  if (!processAlive(holder.pid)) return true;
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  return start !== undefined && start !== holder.start;
}

type Seen = { kind: 'free' } | { kind: 'held'; holder: LockHolder | undefined } | { kind: 'stale'; holder: LockHolder | undefined };

/** What is at the lock's path now. */
function look(path: string): Seen {
  let text: string;
  let ageMs: number;
  try {
    text = readFileSync(path, 'utf8');
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return { kind: 'free' };
    throw error;
  }
  const holder = parseHolder(text);
  if (holder === undefined) return { kind: ageMs > unreadableStaleMs ? 'stale' : 'held', holder: undefined };
  return { kind: holderIsGone(holder) ? 'stale' : 'held', holder };
}

/**
 * Moves a stale lock out of the way. It is renamed to a name of this process's own first, then
 * read: if what moved is not the stale lock judged (another process took it over meanwhile and
 * holds it now), it is put back.
 */
function takeOver(path: string, stale: LockHolder | undefined, mine: LockHolder): void {
  const aside = `${path}.${mine.token}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return;
    throw error;
  }
  const moved = parseHolder(readProc(aside) ?? '');
  if (moved !== undefined && moved.token !== stale?.token) {
    try {
      linkSync(aside, path);
    } catch (error) {
      if (errnoCodeOf(error) !== 'EEXIST') throw error;
    }
  }
  unlinkSync(aside);
}

/** One try: the lock taken, or who holds it. */
function tryLock(path: string, mine: LockHolder): HeldLock | LockBusy {
  for (let round = 0; round < 3; round++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') {
        // The first lock of a new state directory (the journal's writer makes it the same way).
        makeDirectory(dirname(path));
        continue;
      }
      if (errnoCodeOf(error) !== 'EEXIST') throw error;
      const seen = look(path);
      if (seen.kind === 'held') return new LockBusy(path, seen.holder);
      if (seen.kind === 'stale') takeOver(path, seen.holder, mine);
      continue;
    }
    const taken = { ...mine, since: new Date().toISOString() };
    try {
      writeSync(fd, JSON.stringify(taken));
    } finally {
      closeSync(fd);
    }
    return heldLock(path, taken);
  }
  return new LockBusy(path, look(path).kind === 'held' ? parseHolder(readProc(path) ?? '') : undefined);
}

function heldLock(path: string, holder: LockHolder): HeldLock {
  let released = false;
  return {
    path,
    holder,
    release() {
      if (released) return;
      released = true;
      if (parseHolder(readProc(path) ?? '')?.token !== holder.token) return;
      try {
        unlinkSync(path);
      } catch (error) {
        if (errnoCodeOf(error) !== 'ENOENT') throw error;
      }
    },
  };
}

/** Takes the lock at once, or says who holds it. */
export function lockNow(path: string): HeldLock | LockBusy {
  return tryLock(path, thisHolder());
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock, waiting while a live process holds it, at most `waitMs`; then says who holds
 * it. The pauses grow from 1 ms and are jittered, so processes waiting together do not wake as one.
 */
export async function lockWaiting(path: string, waitMs: number, signal?: AbortSignal): Promise<HeldLock | LockBusy> {
  const mine = thisHolder();
  const until = Date.now() + waitMs;
  let delay = 1;
  for (;;) {
    const result = tryLock(path, mine);
    if (!(result instanceof LockBusy) || Date.now() >= until || signal?.aborted) return result;
    await pause(delay * (0.5 + Math.random()));
    delay = Math.min(delay * 2, 50);
  }
}
