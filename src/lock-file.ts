import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { makeDirectory, publish, removeFile, removeLeftover } from './durable.js';
import { errnoCodeOf } from './errors.js';

// A lock file: who holds an order file's results for a bulk run, named beside it (pid, host, since) so a
// refusal says who. Written whole, then link(2)ed to its path, which fails when taken (Node has no flock);
// a dead holder's lock is taken over under `<lock>.break`, one taker at a time.
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
  /** Linux: the pid namespace, so a holder in another container is never judged by a pid of this one. */
  pidNamespace?: string;
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

function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/PID/stat (after the command's closing parenthesis, which may itself hold spaces). */
function processStart(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** Whether a process of this machine is running (signal 0 asks without sending one). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return errnoCodeOf(error) === 'EPERM';
  }
}

/** What names this process as a holder besides its token, read once: it does not change while it runs. */
let processFacts: { boot: string | undefined; start: string | undefined; namespace: string | undefined } | undefined;

function thisHolder(): LockHolder {
  processFacts ??= { boot: bootId(), start: processStart(process.pid), namespace: pidNamespace() };
  const { boot, start, namespace } = processFacts;
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomUUID(),
    ...(boot === undefined ? {} : { boot }),
    ...(start === undefined ? {} : { start }),
    ...(namespace === undefined ? {} : { pidNamespace: namespace }),
  };
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof value.pid !== 'number' ||
      typeof value.host !== 'string' ||
      typeof value.since !== 'string' ||
      typeof value.token !== 'string'
    )
      return undefined;
    return value as LockHolder;
  } catch {
    return undefined;
  }
}

// Whether a holder is gone for sure. One on another host or pid namespace cannot be judged from here: it is
// taken as alive, and its lock removed by hand once it is known gone.
function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  const namespace = pidNamespace();
  if (holder.pidNamespace !== undefined && namespace !== undefined && holder.pidNamespace !== namespace) return false;
  const boot = bootId();
  if (holder.boot !== undefined && boot !== undefined && holder.boot !== boot) return true;
  if (!processAlive(holder.pid)) return true;
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  return start !== undefined && start !== holder.start;
}

type Seen =
  | { kind: 'free' }
  | { kind: 'held'; holder: LockHolder | undefined }
  | { kind: 'stale'; holder: LockHolder | undefined };

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
  // A lock is made whole (written, then linked), so one that does not parse was damaged: stale once old.
  if (holder === undefined) return { kind: ageMs > unreadableStaleMs ? 'stale' : 'held', holder: undefined };
  return { kind: holderIsGone(holder) ? 'stale' : 'held', holder };
}

// Removes a stale lock under `<lock>.break`: read again and removed only if still the stale one judged, never
// a lock taken meanwhile. A break whose taker died midway is stale the same way.
function takeOver(path: string, stale: LockHolder | undefined, mine: LockHolder): void {
  const breaker = `${path}.break`;
  if (!placeLock(breaker, { ...mine, since: new Date().toISOString() })) {
    if (look(breaker).kind === 'stale') removeFile(breaker);
    return;
  }
  try {
    const now = look(path);
    if (now.kind === 'stale' && now.holder?.token === stale?.token) removeFile(path);
  } finally {
    removeFile(breaker);
  }
}

// Writes the lock whole to a file of its own, then links it to the lock's path (link(2) never replaces), so no
// lock is read half written. False when another process holds the path.
function placeLock(path: string, holder: LockHolder): boolean {
  const temporary = `${path}.${holder.token}.tmp`;
  try {
    writeLock(temporary, holder);
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw error;
    // The results file's directory, made as the results file would be.
    makeDirectory(dirname(path));
    writeLock(temporary, holder);
  }
  return publish(temporary, path);
}

/** The holder written to a file of its own; one that could not be written whole (a full disk) is removed. */
function writeLock(temporary: string, holder: LockHolder): void {
  try {
    writeFileSync(temporary, JSON.stringify(holder), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Made empty by the failed write (a full disk), or never made (no directory).
    removeLeftover(temporary);
    throw error;
  }
}

/** One try: the lock taken, or who holds it. */
function tryLock(path: string, mine: LockHolder): HeldLock | LockBusy {
  for (let round = 0; round < 3; round++) {
    const taken = { ...mine, since: new Date().toISOString() };
    if (placeLock(path, taken)) return heldLock(path, taken);
    const seen = look(path);
    if (seen.kind === 'held') return new LockBusy(path, seen.holder);
    if (seen.kind === 'stale') takeOver(path, seen.holder, mine);
  }
  const seen = look(path);
  return new LockBusy(path, seen.kind === 'free' ? undefined : seen.holder);
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
      removeFile(path);
    },
  };
}

/** Takes the lock at once, or says who holds it. */
export function lockNow(path: string): HeldLock | LockBusy {
  return tryLock(path, thisHolder());
}
