import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { writeAll } from '../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import { readRecord } from '../record-format.js';
import type { WaitingOutcome } from '../sql/rows.js';

/** Outcomes the team ledger could not take after their Payment left wait here, a file of fsynced
 * JSON lines per ledger. The next command delivers them (deliver-fallback.ts); a record's unique
 * id makes a repeated delivery add nothing twice. */
export type { WaitingOutcome } from '../sql/rows.js';

/** The fallback of one ledger: a directory and the name its files start with (from the URL without its password). */
export function fallbackOf(stateDirectory: string, shownUrl: string): { directory: string; stem: string } {
  return {
    directory: join(stateDirectory, 'ledger-fallback'),
    stem: createHash('sha256').update(shownUrl).digest('hex').slice(0, 16),
  };
}

type Fallback = ReturnType<typeof fallbackOf>;
const livePath = ({ directory, stem }: Fallback) => join(directory, `${stem}.jsonl`);

const linesOf = (outcomes: readonly WaitingOutcome[]) =>
  Buffer.from(outcomes.map((outcome) => `${JSON.stringify(outcome)}\n`).join(''), 'utf8');

/** Appends the bytes to `path` (0600, in the fallback's 0700 directory) and fsyncs them; then
 * asks `landed` about the file, still open (so its inode number is still its own). */
function appendFsynced(
  fallback: Fallback,
  path: string,
  bytes: Buffer,
  landed: (fd: number) => boolean = () => true,
): boolean {
  mkdirSync(fallback.directory, { recursive: true, mode: 0o700 });
  const fd = openSync(path, 'a', 0o600);
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
    return landed(fd);
  } finally {
    closeSync(fd);
  }
}

/** A failed system call while writing `path`, as the LocalStorageError that names it. */
function writingFallback<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (errnoCodeOf(error) === undefined) throw error;
    throw new LocalStorageError('write the ledger fallback file', path, error);
  }
}

/** Appends and fsyncs; then, if a delivery renamed the file away meanwhile (its inode is no
 * longer the path's), appends again to the new file: a line is always in a file a delivery
 * will read. A line delivered twice is harmless (its record id). */
export function keepWaiting(fallback: Fallback, outcomes: readonly WaitingOutcome[]): void {
  const path = livePath(fallback);
  const bytes = linesOf(outcomes);
  writingFallback(path, () => {
    while (!appendFsynced(fallback, path, bytes, (fd) => stillThere(path, fstatSync(fd).ino)));
  });
}

/** What the person is told of outcomes kept here (the ledger `shown` did not take them, for `reason`). */
export function keptNote(shown: string, reason: string, outcomes: readonly WaitingOutcome[]): string {
  const count =
    outcomes.length === 1
      ? `the outcome of ${outcomes[0]!.record.transactionId} is`
      : `${outcomes.length} outcomes are`;
  return `the ledger ${shown} did not take it (${reason}): ${count} kept on this machine and delivered by the next agentpay command that reaches the ledger`;
}

function stillThere(path: string, inode: number): boolean {
  try {
    return statSync(path).ino === inode;
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

/** The fallback's files: the live one and any a delivery took and did not finish. */
function filesOf(fallback: Fallback): string[] {
  try {
    return readdirSync(fallback.directory)
      .filter(
        (name) =>
          name === `${fallback.stem}.jsonl` || (name.startsWith(`${fallback.stem}.`) && name.endsWith('.delivering')),
      )
      .map((name) => join(fallback.directory, name));
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return [];
    throw error;
  }
}

/** The outcomes in one file; a torn last line (a crash mid-write) is left out, counted. */
function readWaiting(path: string): { outcomes: WaitingOutcome[]; damaged: number } {
  const outcomes: WaitingOutcome[] = [];
  let damaged = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as WaitingOutcome;
      const record = readRecord(value.record);
      if (record.kind !== 'outcome' || typeof value.recordId !== 'string') throw new Error('not an outcome');
      const answers = typeof value.answers === 'string' ? { answers: value.answers } : {};
      outcomes.push({
        recordId: value.recordId,
        operator: String(value.operator),
        host: String(value.host),
        record,
        ...answers,
      });
    } catch {
      damaged++;
    }
  }
  return { outcomes, damaged };
}

/** Outcomes the ledger refused for what they hold (not for being unreachable): set aside in a
 * file of their own, so they stop holding up the others; a person can look at them. */
export function setAside(fallback: Fallback, outcomes: readonly WaitingOutcome[]): string {
  const path = join(fallback.directory, `${fallback.stem}.undeliverable.jsonl`);
  writingFallback(path, () => appendFsynced(fallback, path, linesOf(outcomes)));
  return path;
}

/** How many outcomes wait for this ledger on this machine (`doctor`). */
export function countWaiting(fallback: Fallback): number {
  return filesOf(fallback).reduce((sum, path) => sum + readWaiting(path).outcomes.length, 0);
}

/** Hands every waiting outcome to `deliver`, file by file. The live file is first renamed to a
 * name of this process's own, so appenders start a new one (keepWaiting); a file is removed
 * only once delivered. Returns how many were delivered (`deliver` may say how many it took). */
export async function deliverWaiting(
  fallback: Fallback,
  deliver: (outcomes: WaitingOutcome[]) => Promise<number | void>,
): Promise<number> {
  const live = livePath(fallback);
  try {
    renameSync(
      live,
      join(fallback.directory, `${fallback.stem}.${process.pid}-${randomBytes(4).toString('hex')}.delivering`),
    );
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw new LocalStorageError('take the ledger fallback file', live, error);
  }
  let delivered = 0;
  for (const path of filesOf(fallback).filter((file) => file !== live)) {
    const { outcomes } = readWaiting(path);
    const taken = await deliver(outcomes);
    delivered += typeof taken === 'number' ? taken : outcomes.length;
    try {
      unlinkSync(path);
    } catch (error) {
      // Another command delivered the same file at the same time: nothing left to do.
      if (errnoCodeOf(error) !== 'ENOENT')
        throw new LocalStorageError('remove the delivered ledger fallback file', path, error);
    }
  }
  return delivered;
}
