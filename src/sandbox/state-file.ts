import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { writeAll } from '../durable.js';
import { RecordPlaces } from './record-places.js';
import type { StoredTransaction } from './state.js';

/** Records read from the file at most this many bytes at a time. */
const chunkBytes = 1 << 20;
/** A record is read back this many bytes at a time until its newline (a payment's takes ~370). */
const recordBytes = 1024;

/**
 * The sandbox's transactions as its state file holds them (JSON Lines, the last record of a
 * transaction wins), with in memory only where each one's latest record is (record-places.ts),
 * ~20-26 bytes a transaction where the record as an object takes ~350. `--sandbox` runs the sandbox in the
 * client's own process, so a paid bulk run's memory followed its rows while it held them whole.
 * A record is read back from the file (the page cache, mostly) when asked for.
 */
export class StateFile {
  private readonly places = new RecordPlaces();
  /** Read up to here: every whole line before it is in the index. */
  private offset = 0;

  constructor(private readonly path: string) {}

  get size(): number {
    return this.places.size;
  }

  find(agentId: string, transactionId: string): StoredTransaction | undefined {
    return this.withFile((fd) => {
      let found: StoredTransaction | undefined;
      this.places.get(keyOf(agentId, transactionId), (number) => {
        const record = this.recordAt(fd, number);
        if (record.agentId !== agentId || record.transactionId !== transactionId) return false;
        found = record;
        return true;
      });
      return found;
    });
  }

  all(): StoredTransaction[] {
    return (
      this.withFile((fd) => Array.from({ length: this.places.size }, (_, number) => this.recordAt(fd, number))) ?? []
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
      this.place(transaction, size + torn.length);
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
            this.place(transaction, from + start);
            seen(transaction);
          }
          start = newline + 1;
        }
        this.offset = from + start;
        carried = bytes.subarray(start);
      }
    });
  }

  /** The transaction's latest record is the one at `offset`. */
  private place(transaction: StoredTransaction, offset: number): void {
    const { agentId, transactionId } = transaction;
    this.places.set(keyOf(agentId, transactionId), offset, (number) => {
      // Only when the hash of an earlier transaction's key is this one's: a later record of it, mostly.
      const earlier = this.withFile((fd) => this.recordAt(fd, number));
      return earlier?.agentId === agentId && earlier.transactionId === transactionId;
    });
  }

  /** Transaction `number`'s latest record, read from its offset to its newline. */
  private recordAt(fd: number, number: number): StoredTransaction {
    const offset = this.places.offsetOf(number);
    let bytes = Buffer.allocUnsafe(recordBytes);
    let read = 0;
    for (;;) {
      const got = readSync(fd, bytes, read, bytes.length - read, offset + read);
      const newline = bytes.indexOf(0x0a, read);
      read += got;
      if (newline >= 0 && newline < read) return JSON.parse(bytes.toString('utf8', 0, newline)) as StoredTransaction;
      if (got === 0) return JSON.parse(bytes.toString('utf8', 0, read)) as StoredTransaction;
      if (read === bytes.length) bytes = Buffer.concat([bytes, Buffer.allocUnsafe(bytes.length)]);
    }
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

/** What a transaction's place is found by (hashed only: the record itself confirms it). */
const keyOf = (agentId: string, transactionId: string) => `${agentId}\n${transactionId}`;

/** A line as a record; a blank line, or one torn by a crash (never acknowledged to a client), is none. */
function parsed(line: string): StoredTransaction | undefined {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line) as StoredTransaction;
  } catch {
    return undefined;
  }
}
