import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LockBusy, lockNow } from '../../src/lock-file.js';
import { isolatedEnv } from '../helpers/cli.js';

// The lock file (src/lock-file.ts) between real processes: never two holders, however they
// arrive, and a lock left by a killed holder taken over, by one taker at a time.
const worker = fileURLToPath(new URL('../helpers/lock-worker.mjs', import.meta.url));

function start(env: Record<string, string>): { child: ChildProcess; done: Promise<number | null> } {
  const child = spawn(process.execPath, [worker], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, done: new Promise((resolve) => child.on('close', resolve)) };
}

/** Who held the lock at once, from the log: [] when never two. The killed holder's lock is taken over, as it should be. */
function overlaps(log: string, killed: number): string[] {
  const found: string[] = [];
  let holder: string | undefined;
  for (const line of log.trim().split('\n')) {
    const [what, pid] = line.split(' ');
    if (what === 'in') {
      if (holder !== undefined && holder !== String(killed)) found.push(`${pid} took it while ${holder} held it`);
      holder = pid;
    } else if (holder === pid) holder = undefined;
  }
  return found;
}

describe('the lock file between processes', () => {
  it('six processes taking turns, one killed while holding it and others arriving at its stale lock: never two holders', async () => {
    const home = isolatedEnv().HOME!;
    const [path, log] = [join(home, 'journal.jsonl.lock'), join(home, 'log')];
    writeFileSync(log, '');
    // A holder that dies with the lock: every process after it meets a stale lock at once.
    const hanging = start({ LOCK_PATH: path, LOCK_LOG: log, LOCK_HANG: '1' });
    await new Promise((resolve) => hanging.child.stdout!.once('data', resolve));
    hanging.child.kill('SIGKILL');
    await hanging.done;
    const workers = Array.from({ length: 6 }, () => start({ LOCK_PATH: path, LOCK_LOG: log, LOCK_ROUNDS: '25' }));
    expect(await Promise.all(workers.map((each) => each.done))).toEqual([0, 0, 0, 0, 0, 0]);
    const text = readFileSync(log, 'utf8');
    expect(text.split('\n').filter((line) => line.startsWith('in '))).toHaveLength(1 + 6 * 25);
    expect(overlaps(text, hanging.child.pid!)).toEqual([]);
  }, 60_000);

  it('a lock whose holder is in another pid namespace or on another host is never taken over; a dead one here is', () => {
    const path = join(isolatedEnv().HOME!, 'other.lock');
    const since = '2026-01-01T00:00:00.000Z';
    // pid 1 is alive here, but it is another process than the one in the holder's namespace.
    for (const holder of [
      { pid: 1, host: hostname(), since, token: 'other-namespace', start: '1', pidNamespace: 'pid:[1]' },
      { pid: 999_999_999, host: `not-${hostname()}`, since, token: 'other-host' },
    ]) {
      writeFileSync(path, JSON.stringify(holder));
      const result = lockNow(path);
      expect(result).toBeInstanceOf(LockBusy);
      expect((result as LockBusy).holder?.token).toBe(holder.token);
    }
    writeFileSync(path, JSON.stringify({ pid: 999_999_999, host: hostname(), since, token: 'dead-here' }));
    const taken = lockNow(path);
    expect(taken).not.toBeInstanceOf(LockBusy);
    expect(JSON.parse(readFileSync(path, 'utf8')).token).not.toBe('dead-here');
  });

  it('a stale lock is removed by one taker at a time: not while another holds <lock>.break, and a break left by a dead taker is cleared', () => {
    const path = join(isolatedEnv().HOME!, 'results.csv.lock');
    writeFileSync(
      path,
      JSON.stringify({ pid: 999_999_999, host: hostname(), since: '2026-01-01T00:00:00.000Z', token: 'dead' }),
    );
    writeFileSync(`${path}.break`, '');
    expect(lockNow(path)).toBeInstanceOf(LockBusy);
    expect(JSON.parse(readFileSync(path, 'utf8')).token).toBe('dead');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.break`, old, old);
    const taken = lockNow(path);
    expect(taken).not.toBeInstanceOf(LockBusy);
    expect(existsSync(`${path}.break`)).toBe(false);
  });

  it('a break whose taker was killed in the middle of a takeover is cleared at once, and the stale lock taken over', () => {
    const path = join(isolatedEnv().HOME!, 'killed.csv.lock');
    const dead = (token: string) =>
      JSON.stringify({ pid: 999_999_999, host: hostname(), since: '2026-01-01T00:00:00.000Z', token });
    writeFileSync(path, dead('dead-run'));
    writeFileSync(`${path}.break`, dead('dead-taker'));
    expect(lockNow(path)).not.toBeInstanceOf(LockBusy);
    expect(existsSync(`${path}.break`)).toBe(false);
  });
});
