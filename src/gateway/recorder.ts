import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeLeftover, writeAll } from '../durable.js';
import { errnoCodeOf } from '../errors.js';
import { cassetteFileName, cassetteOf, type RecordedExchange, sequenceOf } from '../protocol/cassette.js';

/** The directory cannot take cassettes: refused before anything is sent. */
export class RecordDirectoryError extends Error {
  readonly directory: string;
  readonly code: string;
  constructor(directory: string, code: string) {
    super(`cannot record into ${directory}: ${code}`);
    this.name = 'RecordDirectoryError';
    this.directory = directory;
    this.code = code;
  }
}

/** --record: each answered exchange as one cassette file (protocol/cassette.ts), numbered after the highest there,
 * written whole under a temporary name and linked, never over another's: a cassette is whole or absent. A failed
 * write never fails the exchange (a payment made stays reported as made); the first failure is kept to tell. */
export class CassetteRecorder {
  private next: number;
  private failed: string | undefined;

  private constructor(
    readonly directory: string,
    private readonly redact: (text: string) => string,
  ) {
    this.next = highestSequence(directory) + 1;
  }

  /** The directory made if missing, and proved writable by writing into it. */
  static open(directory: string, redact: (text: string) => string): CassetteRecorder {
    const probe = join(directory, `.agentpay-probe-${process.pid}`);
    try {
      mkdirSync(directory, { recursive: true });
      writeFileSync(probe, '');
      unlinkSync(probe);
    } catch (error) {
      throw new RecordDirectoryError(directory, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
    return new CassetteRecorder(directory, redact);
  }

  /** Why a cassette could not be written, if one could not. */
  get failure(): string | undefined {
    return this.failed;
  }

  record(exchange: RecordedExchange): void {
    if (this.failed !== undefined) return;
    const cassette = cassetteOf(exchange, this.redact);
    const bytes = Buffer.from(`${JSON.stringify(cassette, null, 2)}\n`, 'utf8');
    // Named so no replay reads it as a cassette (protocol/cassette.ts sequenceOf).
    const temporary = join(this.directory, `.recording.${process.pid}.${randomUUID()}.tmp`);
    let file = join(this.directory, cassetteFileName(this.next, cassette.request));
    try {
      writeWhole(temporary, bytes);
      for (;;) {
        file = join(this.directory, cassetteFileName(this.next++, cassette.request));
        if (publishAs(temporary, file)) return;
      }
    } catch (error) {
      this.failed = `${file}: ${errnoCodeOf(error) ?? (error as Error).message}`;
    } finally {
      removeLeftover(temporary);
    }
  }
}

/** A file written whole and fsynced under a name of its own: a full disk leaves nothing behind. */
function writeWhole(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'wx', 0o644);
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The finished file given a cassette's name, never over another's (link(2) fails rather than replace). */
function publishAs(temporary: string, file: string): boolean {
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if (errnoCodeOf(error) === 'EEXIST') return false;
    throw error;
  }
}

function highestSequence(directory: string): number {
  let highest = 0;
  for (const name of readdirSync(directory)) highest = Math.max(highest, sequenceOf(name) ?? 0);
  return highest;
}
