import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { lineOf } from './line-format.js';
import type { JournalRecord } from './records.js';

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

  append(record: JournalRecord): void {
    const fd = this.open();
    // Always the journal's own line format: readers scan it without parsing (line-format.ts).
    const line = Buffer.from(`${lineOf(record)}\n`, 'utf8');
    let written = 0;
    while (written < line.length) written += writeSync(fd, line, written, line.length - written);
    fsyncSync(fd);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
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
