import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { writeAll } from '../durable.js';
import { ensureLength, growable } from '../packed/growable.js';
import { TransactionIndex } from '../packed/transaction-index.js';
import type { StoredTransaction } from './state.js';

/** Records read from the file at most this many bytes at a time. */
const chunkBytes = 1 << 20;

/**
 * The sandbox's transactions as its state file holds them (JSON Lines, the last record of a
 * transaction wins), with in memory only where each one's latest record is: its number in a
 * packed index (packed/transaction-index.ts) and the record's offset and length, ~30 bytes a
 * transaction where the record as an object takes ~350. `--sandbox` runs the sandbox in the
 * client's own process, so a paid bulk run's memory followed its rows while it held them whole.
 * A record is read back from the file (the page cache, mostly) when asked for.
 */
export class StateFile {
  private readonly index = new TransactionIndex();
  private readonly offsetLow = growable(Uint32Array);
  private readonly offsetHigh = growable(Uint16Array);
  private readonly lengths = growable(Uint32Array);
  /** Read up to here: every whole line before it is in the index. */
  private offset = 0;

  constructor(private readonly path: string) {}

  get size(): number {
    return this.index.size;
  }

  find(agentId: string, transactionId: string): StoredTransaction | undefined {
    const number = this.index.get(agentId, transactionId);
    return number === undefined ? undefined : this.withFile((fd) => this.recordAt(fd, number));
  }

  all(): StoredTransaction[] {
    return (
      this.withFile((fd) => Array.from({ length: this.index.size }, (_, number) => this.recordAt(fd, number))) ?? []
    );
  }

  /**
   * Appends a record, after `refresh` under the store's lock. Bytes past the last whole line
   * are a line a crash cut short: the record starts on a line of its own after them.
   */
  append(transaction: StoredTransaction): void {
    const fd = openSync(this.path, 'a', 0o600);
    try {
      const size = fstatSync(fd).size;
      const torn = size > this.offset ? '\n' : '';
      const bytes = Buffer.from(`${torn}${JSON.stringify(transaction)}\n`, 'utf8');
      writeAll(fd, bytes);
      this.place(transaction, size + torn.length, bytes.length - torn.length - 1);
      this.offset = size + bytes.length;
    } finally {
      closeSync(fd);
    }
  }

  /** Takes in the records appended since the last look (by another process too), a chunk at a time; `seen` is told of each. */
  refresh(seen: (transaction: StoredTransaction) => void): void {
    this.withFile((fd) => {
      const size = fstatSync(fd).size;
      let carried = Buffer.alloc(0);
      for (let position = this.offset; position < size; ) {
        const chunk = Buffer.allocUnsafe(Math.min(chunkBytes, size - position));
        const got = readSync(fd, chunk, 0, chunk.length, position);
        if (got === 0) break;
        position += got;
        const bytes = carried.length === 0 ? chunk.subarray(0, got) : Buffer.concat([carried, chunk.subarray(0, got)]);
        const from = position - bytes.length;
        let start = 0;
        for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a, start)) {
          const transaction = parsed(bytes.toString('utf8', start, newline));
          if (transaction !== undefined) {
            this.place(transaction, from + start, newline - start);
            seen(transaction);
          }
          start = newline + 1;
        }
        this.offset = from + start;
        carried = bytes.subarray(start);
      }
    });
  }

  private place(transaction: StoredTransaction, offset: number, length: number): void {
    const number = this.index.numberOf(transaction.agentId, transaction.transactionId);
    for (const array of [this.offsetLow, this.offsetHigh, this.lengths]) ensureLength(array, number + 1);
    this.offsetLow[number] = offset % 2 ** 32;
    this.offsetHigh[number] = Math.floor(offset / 2 ** 32);
    this.lengths[number] = length;
  }

  private recordAt(fd: number, number: number): StoredTransaction {
    const offset = this.offsetHigh[number]! * 2 ** 32 + this.offsetLow[number]!;
    const bytes = Buffer.allocUnsafe(this.lengths[number]!);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    return JSON.parse(bytes.toString('utf8', 0, read)) as StoredTransaction;
  }

  /** The file open for reading; nothing to do while it does not exist. */
  private withFile<T>(read: (fd: number) => T): T | undefined {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return read(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** A line as a record; a blank line, or one torn by a crash (never acknowledged to a client), is none. */
function parsed(line: string): StoredTransaction | undefined {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line) as StoredTransaction;
  } catch {
    return undefined;
  }
}
