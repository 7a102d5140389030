import { closeSync, fstatSync, fsync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirectory, syncDirectory, writeAll } from '../../durable.js';
import { errnoCodeOf, LocalStorageError } from '../../errors.js';
import { type JournalRecord, lineOf } from '../record-format.js';
import { lengthOfCutHolding } from './cut-length.js';

/**
 * Appends records to the journal. Each record is one line written by one write(2) on a file
 * opened O_APPEND, so lines from processes appending at once never interleave; each is
 * fsynced before append() returns, so an intent is on disk before its Payment leaves.
 *
 * `ledger compact` renames the journal away while writers may hold it open (docs/reliability.md,
 * "Compacting the journal"). So after each line is on disk the writer checks that the path
 * still names the file it wrote to. If so, the rename came later, and the line is in the cut
 * before its length. If not, the file is a cut, and what counts of it is its fixed length
 * (cut-length.ts cutLength; fixed now, at the cut's size, if no one did yet: the line is
 * inside). A line inside the length is where it is for good: compactions sort it, readers may
 * have read it there. A line past it was never read by anyone (readers stop at the length), and
 * is written again to the journal there now. So a line is recorded once, and a line that has
 * been seen never moves behind records written after it.
 *
 * Group commit (`appendGrouped`): the records a process appends while its last fsync is under
 * way go out together, their lines in one write(2) and one fsync, each promise kept once that
 * fsync is done. The first record of a quiet writer is written at once, so one payment waits no
 * longer than before; a batch of payments (`pay --from-file`) shares its fsyncs rather than
 * queueing for one each, and the fsync runs off the event loop while answers keep arriving.
 */
export class JournalWriter {
  /** The open file, with its identity: a descriptor keeps it for its life, so it is read once at open, not after every write. */
  private file: { fd: number; identity: FileIdentity } | undefined;
  readonly path: string;
  /** Lines waiting for the fsync under way to end, with the callers to answer once theirs is done. */
  private waiting: { line: Buffer; written: (() => void) | undefined; done: (error?: unknown) => void }[] = [];
  private writing = false;
  private closeWhenWritten = false;

  constructor(path: string) {
    this.path = path;
  }

  /** Throws LocalStorageError (with the errno code: EROFS, ENOSPC, EACCES...) when it cannot. */
  append(record: JournalRecord): void {
    let lines: Buffer[] = [lineBytes(record)];
    try {
      while (lines.length > 0) {
        const { fd, identity } = this.open();
        const from = fstatSync(fd).size;
        writeAll(fd, Buffer.concat(lines));
        fsyncSync(fd);
        lines = this.linesToWriteAgain(fd, identity, lines, from);
      }
    } catch (error) {
      throw storageError(error, this.path);
    }
  }

  /**
   * append, as part of a group: resolves once the record is on disk; rejects with
   * LocalStorageError when it cannot be. `written` is called once its line is in the file (other
   * processes read it from then on), before the fsync that makes it last, or with the failure.
   */
  appendGrouped(record: JournalRecord, written?: () => void): Promise<void> {
    const line = lineBytes(record);
    return new Promise((resolve, reject) => {
      this.waiting.push({ line, written, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.writeGroups();
    });
  }

  /** Writes what is waiting, a group at a time, until nothing is. */
  private async writeGroups(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const group = this.waiting;
      this.waiting = [];
      let failure: unknown;
      try {
        let lines: Buffer[] = group.map(({ line }) => line);
        while (lines.length > 0) {
          const { fd, identity } = this.open();
          const from = fstatSync(fd).size;
          // One write(2) of whole lines on a file opened O_APPEND: no other writer's line lands inside it.
          writeAll(fd, Buffer.concat(lines));
          tellWritten(group);
          await fsyncOffLoop(fd);
          lines = this.linesToWriteAgain(fd, identity, lines, from);
        }
      } catch (error) {
        failure = storageError(error, this.path);
      }
      tellWritten(group);
      for (const { done } of group) done(failure);
    }
    this.writing = false;
    if (this.closeWhenWritten) {
      this.closeWhenWritten = false;
      this.close();
    }
  }

  /**
   * After lines written from `from` on are on disk: none when the path still names the file;
   * else the file is a cut, and the lines past its fixed length (never read by anyone) are to be
   * written again to the journal now at the path.
   */
  private linesToWriteAgain(fd: number, identity: FileIdentity, lines: Buffer[], from: number): Buffer[] {
    if (this.stillAtPath(identity)) return [];
    const length = lengthOfCutHolding(this.path, fd);
    const again = length === undefined ? lines : lines.filter((line) => !holdsLine(fd, line, from, length));
    this.closeFile();
    return again;
  }

  /** Closes the file; while a group is being written, once it is (its fsync holds the descriptor). */
  close(): void {
    if (this.writing) {
      this.closeWhenWritten = true;
      return;
    }
    this.closeFile();
  }

  private closeFile(): void {
    if (this.file !== undefined) closeSync(this.file.fd);
    this.file = undefined;
  }

  /** Whether the journal's path names the file written to (no path counts as no). */
  private stillAtPath(written: FileIdentity): boolean {
    try {
      const named = statSync(this.path);
      return named.ino === written.ino && named.dev === written.dev;
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') return false;
      throw error;
    }
  }

  private open(): { fd: number; identity: FileIdentity } {
    if (this.file !== undefined) return this.file;
    makeDirectory(dirname(this.path));
    const fd = openSync(this.path, 'a+', 0o600);
    let identity: FileIdentity;
    try {
      // The journal's name lasts a crash of the machine only once its directory is fsynced: a
      // compaction renames the journal away, and the process that made the fresh one may have
      // died before it fsynced the directory. An empty journal is such a fresh one (whoever made
      // it fsyncs the directory before its first line), so it costs a directory fsync only then.
      const { size, ino, dev } = fstatSync(fd);
      identity = { ino, dev };
      if (size === 0) syncDirectory(dirname(this.path));
      if (size > 0 && endsTorn(fd, size)) writeSync(fd, '\n');
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.file = { fd, identity };
    return this.file;
  }
}

/** Tells each record of a group that asked that its line is written (once: the first call takes the callbacks). */
function tellWritten(group: { written: (() => void) | undefined }[]): void {
  for (const record of group) {
    const written = record.written;
    record.written = undefined;
    written?.();
  }
}

/** What names a file whatever its path: a rename keeps it, a new file at the path has another. */
interface FileIdentity {
  ino: number;
  dev: number;
}

/** A record as its line: always the writer's own form, which readers scan without parsing (line-format.ts). */
const lineBytes = (record: JournalRecord) => Buffer.from(`${lineOf(record)}\n`, 'utf8');

/** A failure of the file system as LocalStorageError (with the errno code: EROFS, ENOSPC, EACCES...). */
function storageError(error: unknown, path: string): unknown {
  return errnoCodeOf(error) === undefined ? error : new LocalStorageError('write the journal', path, error);
}

/** fsync(2) in libuv's pool: the event loop goes on meanwhile. */
function fsyncOffLoop(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Whether the file ends in a torn line (a crash cut it before its newline), which must be ended
 * so the next record starts on a line of its own instead of being glued to it.
 *
 * Another writer's line being copied in at this moment can look the same: the size grows a
 * folio at a time (up to megabytes on ext4), ahead of the bytes. There is no telling the two
 * apart without a lock, so the newline is written anyway; it lands after the other's whole line
 * (O_APPEND), a blank line that readers skip (reader.ts). Nothing is glued and nothing lost.
 */
function endsTorn(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/**
 * Whether the line (with its newline) is in the file open as `fd`, starting at `from` or later
 * and ending by `end`, as a line of its own. A line carries its time: it is not found by
 * chance elsewhere (if it were, that would be the same record, already kept).
 */
function holdsLine(fd: number, line: Buffer, from: number, end: number): boolean {
  const wanted = Buffer.concat([Buffer.from('\n'), line]);
  // The newline before the line, or the start of the file, read as one.
  let position = Math.max(0, from - 1);
  let text = from === 0 ? Buffer.from('\n') : Buffer.alloc(0);
  const chunk = Math.max(64 * 1024, wanted.length * 2);
  while (position < end) {
    const buffer = Buffer.allocUnsafe(Math.min(chunk, end - position));
    const read = readSync(fd, buffer, 0, buffer.length, position);
    if (read === 0) return false;
    position += read;
    text = Buffer.concat([text, buffer.subarray(0, read)]);
    if (text.includes(wanted)) return true;
    text = text.subarray(Math.max(0, text.length - (wanted.length - 1)));
  }
  return false;
}
