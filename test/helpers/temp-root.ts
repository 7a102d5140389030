import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Space the run's files take at most, with room: several PostgreSQL clusters, the scale tests' files. */
const neededBytes = 4 * 2 ** 30;

// Linux's shared-memory tmpfs, when TMPDIR names no other place and it has room: the tests write many small
// files and SQLite and PostgreSQL data, which a disk's filesystem makes the kernel's slowest part of the run.
function memoryBacked(): string | undefined {
  if (process.platform !== 'linux' || process.env.TMPDIR !== undefined) return undefined;
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    return bavail * bsize >= neededBytes ? '/dev/shm' : undefined;
  } catch {
    return undefined;
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
  const root = mkdtempSync(join(memoryBacked() ?? tmpdir(), 'agentpay-tests-'));
  process.env.TMPDIR = root;
  process.env.AGENTPAY_TEST_ROOT = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env.AGENTPAY_TEST_ROOT;
  };
}
