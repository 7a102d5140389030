import { closeSync, constants, fsyncSync, openSync } from 'node:fs';
import { writeAll } from '../../durable.js';
import { randomId, temporaryPath } from './journal-files.js';

/**
 * The files a compaction writes (compact-sort.ts), each first beside the journal under a
 * temporary name (`J.tmp-<n>-<id>`: one a compaction that died leaves is removed by a later
 * one, compact-leftovers.ts), fsynced, then published under its own name by its caller.
 */

/** A file written aside in byte text, a buffer at a time; opened only to write (cuts may span many days). */
export class AsideFile {
  readonly path: string;
  private chunks: string[] = [];
  private size = 0;
  lines = 0;

  constructor(journal: string, generation: number) {
    this.path = temporaryPath(journal, `${generation}-${randomId()}`);
    closeSync(openSync(this.path, 'wx', 0o600));
  }

  add(line: string): number {
    this.chunks.push(line, '\n');
    this.size += line.length + 1;
    this.lines++;
    return line.length + 1;
  }

  flush(): void {
    if (this.size === 0) return;
    const fd = openSync(this.path, constants.O_WRONLY | constants.O_APPEND);
    try {
      writeAll(fd, Buffer.from(this.chunks.join(''), 'latin1'));
    } finally {
      closeSync(fd);
    }
    this.chunks = [];
    this.size = 0;
  }

  finish(): void {
    this.flush();
    const fd = openSync(this.path, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
