import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCodeOf, LocalStorageError } from '../errors.js';
import { syncDirectory, writeAll } from './durable.js';
import { type JournalRecord, lineOf } from './record-format.js';

/**
 * Appends records to the journal. Each record is one line written by one write(2) on a file
 * opened O_APPEND, so lines from processes appending at once never interleave; each is
 * fsynced before append() returns, so an intent is on disk before its Payment leaves.
 *
 * `ledger compact` renames the journal away while writers may hold it open (docs/reliability.md,
 * "Compacting the journal"). So after each line is on disk the writer checks that the path
 * still names the file it wrote to; if not, a compaction renamed it meanwhile and may have read
 * it before the line arrived, so the line is written again to the journal there now. The check
 * comes after the write: if it still saw the file at the path, the rename came later, and the
 * compaction (which reads only after its rename) reads the line. A line may so be recorded
 * twice; readers take a repeated record as the same one.
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
      for (;;) {
        const fd = this.open();
        writeAll(fd, line);
        fsyncSync(fd);
        if (this.stillAtPath(fd)) return;
        this.close();
      }
    } catch (error) {
      if (errnoCodeOf(error) === undefined) throw error;
      throw new LocalStorageError('write the journal', this.path, error);
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /** Whether the journal's path names the open file (no path counts as no). */
  private stillAtPath(fd: number): boolean {
    const open = fstatSync(fd);
    try {
      const named = statSync(this.path);
      return named.ino === open.ino && named.dev === open.dev;
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') return false;
      throw error;
    }
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    makeDirectory(dirname(this.path));
    const fd = openSync(this.path, 'a+', 0o600);
    try {
      // The journal's name lasts a crash of the machine only once its directory is fsynced: a
      // compaction renames the journal away, and the process that made the fresh one may have
      // died before it fsynced the directory. Once per open, before a line in it is trusted.
      syncDirectory(dirname(this.path));
      // A crash can leave a torn last line without its newline; end it, so the next record
      // starts on a line of its own instead of being glued to the torn one.
      const size = fstatSync(fd).size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        readSync(fd, last, 0, 1, size - 1);
        if (last[0] !== 0x0a) writeSync(fd, '\n');
      }
    } catch (error) {
      closeSync(fd);
      throw error;
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
