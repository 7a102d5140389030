import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../errors.js';
import { type JournalRecord, lineOf } from './record-format.js';

/**
 * Appends records to the journal. Each record is one line written by one write(2) on a
 * file opened O_APPEND, so lines from processes appending at once never interleave; each is
 * fsynced before append() returns, so an intent is on disk before its Payment leaves.
 */
export class JournalWriter {
  private fd: number | undefined;
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** Throws LocalStorageError (with the errno code: EROFS, ENOSPC, EACCES...) when it cannot. */
  append(record: JournalRecord): void {
    // Always the writer's own form: readers scan it without parsing (line-format.ts).
    const line = Buffer.from(`${lineOf(record)}\n`, 'utf8');
    try {
      const fd = this.open();
      let written = 0;
      while (written < line.length) written += writeSync(fd, line, written, line.length - written);
      fsyncSync(fd);
    } catch (error) {
      if (errnoCodeOf(error) === undefined) throw error;
      throw new LocalStorageError('write the journal', this.path, error);
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    makeDirectory(dirname(this.path));
    const fd = openSync(this.path, 'a+', 0o600);
    // A crash can leave a torn last line without its newline; end it, so the next record
    // starts on a line of its own instead of being glued to the torn one.
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writeSync(fd, '\n');
    }
    this.fd = fd;
    return fd;
  }
}

/**
 * mkdir -p (0700), failing with the real cause: Node's recursive mkdir reports ENOENT when a
 * missing directory cannot be made on a read-only file system, where EROFS is the truth.
 */
function makeDirectory(directory: string): void {
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
