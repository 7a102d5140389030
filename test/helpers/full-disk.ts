import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWithout } from './system-tools.js';

/**
 * A real full file system for the tests of a full disk: a tmpfs of its own, mounted on a fresh
 * directory, filled by a file until write(2) says ENOSPC. Mounting takes root (CI runs as root);
 * outside CI a test file skips without it, under CI=true it fails saying so.
 */
export interface TinyDisk {
  /** Where it is mounted. */
  readonly path: string;
  /** Fills it to the last page, then gives back `spareBytes` (rounded up to whole pages). */
  fill(spareBytes?: number): void;
  /** Unmounts it and removes its directory. */
  remove(): void;
}

const page = 4096;

/** Whether the tests of a full disk are to be skipped: outside CI, without root or mount; under CI=true, never. */
export function skipWithoutRoot(): boolean {
  if (process.getuid?.() === 0) return skipWithout('mount');
  if (process.env.CI === 'true') throw new Error('these tests mount a tmpfs to fill it: run them as root (CI does)');
  return true;
}

export function mountTinyDisk(kibibytes = 256): TinyDisk {
  const path = mkdtempSync(join(tmpdir(), 'agentpay-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kibibytes}k,mode=0755`, 'tmpfs', path]);
  return {
    path,
    fill(spareBytes = 0) {
      const fd = openSync(join(path, 'filler'), 'w');
      try {
        const chunk = Buffer.alloc(page);
        for (;;) {
          try {
            writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
        const spare = Math.ceil(spareBytes / page) * page;
        if (spare > 0) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - spare));
      } finally {
        closeSync(fd);
      }
    },
    remove() {
      execFileSync('umount', [path]);
      rmdirSync(path);
    },
  };
}
