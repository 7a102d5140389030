import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../src/lock-file.js';

/** Space the run's files take at most, with room: several PostgreSQL clusters, the scale tests' files. */
const neededBytes = 4 * 2 ** 30;
const shm = '/dev/shm';

/** Whether `path` is mounted with noexec (the tests run programs from their temporary directory). */
function mountedNoexec(path: string): boolean {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  const options =
    mounts
      .filter((line) => line.split(' ')[4] === path)
      .at(-1)
      ?.split(' ')[5] ?? '';
  return options.split(',').includes('noexec');
}

// Linux's shared-memory tmpfs, when TMPDIR names no other place and it has room: the tests write many small
// files and SQLite and PostgreSQL data, which a disk's filesystem makes the kernel's slowest part of the run.
function memoryBacked(): string | undefined {
  if (process.platform !== 'linux' || process.env.TMPDIR !== undefined) return undefined;
  try {
    accessSync(shm, constants.W_OK);
    const { bavail, bsize } = statfsSync(shm);
    return bavail * bsize >= neededBytes && !mountedNoexec(shm) ? shm : undefined;
  } catch {
    return undefined;
  }
}

/** The directories of earlier runs whose process is gone (a run killed before its teardown), removed. */
function sweep(base: string): void {
  for (const name of readdirSync(base)) {
    const pid = /^agentpay-tests-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && !processAlive(Number(pid))) rmSync(join(base, name), { recursive: true, force: true });
  }
}

/**
 * vitest globalSetup: one temporary directory for the whole run, made the test workers'
 * TMPDIR (os.tmpdir() reads it), and removed when the run ends, so the homes, journals,
 * certificates and reports the tests make do not pile up in /tmp.
 */
export default function setup(): () => void {
  // Each vitest project runs the setup it extends: the first makes the directory, the others
  // keep it (a directory nested in another of mode 0700 is one PostgreSQL's user cannot reach).
  if (process.env.AGENTPAY_TEST_ROOT !== undefined) return () => {};
  const base = memoryBacked() ?? tmpdir();
  sweep(base);
  const root = mkdtempSync(join(base, `agentpay-tests-${process.pid}-`));
  process.env.TMPDIR = root;
  process.env.AGENTPAY_TEST_ROOT = root;
  // Vitest ends on Ctrl+C without its teardown: the directory goes then too.
  const remove = () => rmSync(root, { recursive: true, force: true });
  process.once('exit', remove);
  return () => {
    remove();
    process.off('exit', remove);
    delete process.env.AGENTPAY_TEST_ROOT;
  };
}
