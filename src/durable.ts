import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCodeOf } from './errors.js';

// A name made, moved or removed in a directory lasts a crash only once the directory itself is fsynced.
export function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some file systems cannot fsync a directory (EINVAL): their names last as they can.
    if (errnoCodeOf(error) !== 'EINVAL') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Writes bytes to a file opened for writing, all of them. */
export function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}

// Writes a file whole, replacing what was there: a fsynced `<name>.<pid>.tmp` renamed over it, the directory
// fsynced. A reader sees the old file or the new, never part; a failed write leaves the old one.
export function replaceFile(path: string, bytes: Buffer, mode = 0o644): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', mode);
    try {
      writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    removeFile(temporary);
    throw error;
  }
  syncDirectory(dirname(path));
}

// Gives a finished, fsynced file its final name unless taken (link(2) fails with EEXIST rather than replace):
// false when another process published first. The temporary name goes either way; the caller syncs the directory.
export function publish(temporary: string, final: string): boolean {
  try {
    linkSync(temporary, final);
    return true;
  } catch (error) {
    if (errnoCodeOf(error) !== 'EEXIST') throw error;
    return false;
  } finally {
    removeFile(temporary);
  }
}

/** unlink(2), a name already gone being no error. */
export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw error;
  }
}

/** Removes what a failed write left, if it can: the failure to tell is the write's, never this one's. */
export function removeLeftover(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already, or on a file system that refuses this too (EROFS): the write's error stands.
  }
}

// mkdir -p (0700) failing with the real cause: recursive mkdir says ENOENT on a read-only file system, not EROFS.
export function makeDirectory(directory: string): void {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  } catch (error) {
    const parent = dirname(directory);
    if (errnoCodeOf(error) !== 'ENOENT' || parent === directory) throw error;
    makeDirectory(parent);
    try {
      mkdirSync(directory, { mode: 0o700 });
    } catch (again) {
      if (errnoCodeOf(again) !== 'EEXIST') throw again;
    }
  }
}
