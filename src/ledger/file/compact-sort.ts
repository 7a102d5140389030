import { closeSync, constants, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { publish, removeFile, syncDirectory, writeAll } from '../../durable.js';
import { errnoCodeOf } from '../../errors.js';
import { ensureLength, growable, release } from '../../packed/growable.js';
import { TransactionIndex } from '../../packed/transaction-index.js';
import { isFinalState } from '../records.js';
import { AsideFile } from './aside-file.js';
import type { CompactionReport } from './compact.js';
import { cutLength } from './cut-length.js';
import { archiveDirectory, archivePath, damagedPath, openRecordsPath, segmentPath } from './journal-files.js';
import { intentTime, OwnLineScanner, type ScannedRecord } from './line-format.js';
import { journalLines, recordOn, streamChunkBytes } from './reader.js';

/**
 * Steps 2 and 3 of a compaction (compact.ts): the length of cut n read (fixed by the first to
 * look), then the records of `J.open-<n-1>` and the cut sorted in two passes: open
 * transactions to `J.open-<n>`, closed ones to the archive by day, damaged lines to
 * `J.damaged`, each file written aside and published in that order.
 */

/** The bytes of cut n every compaction reads (cut-length.ts cutLength); undefined when the cut is gone (compacted meanwhile). */
function cutLengthOf(journal: string, generation: number, id: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(segmentPath(journal, generation, id), 'r');
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return cutLength(journal, generation, fd);
  } finally {
    closeSync(fd);
  }
}

type ScannedIntent = Extract<ScannedRecord, { kind: 'intent' }>;
type ScannedOutcome = Extract<ScannedRecord, { kind: 'outcome' }>;

/** The UTC day an own or parsed record was written, or "undated". */
function dayOf(record: ScannedRecord): string {
  let at: string;
  if (record.kind === 'intent') at = intentTime(record as ScannedIntent);
  else {
    const { content } = record as ScannedOutcome;
    // `"at":"` first appears as the outcome's own key: no string in an own line holds a quote.
    const start = typeof content === 'string' ? content.indexOf('"at":"') + 6 : 0;
    at = typeof content === 'string' ? content.slice(start, content.indexOf('"', start)) : content.at;
  }
  // The writer's own times are UTC (toISOString); any other is read as a time first.
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at)) return at.slice(0, 10);
  const time = Date.parse(at);
  return Number.isNaN(time) ? 'undated' : new Date(time).toISOString().slice(0, 10);
}

interface Input {
  path: string;
  fd: number;
  end: number | undefined;
}

/** Each line of the inputs in order, read as a record or kept as damaged (byte text). */
async function scanInputs(
  inputs: readonly Input[],
  visit: (line: string, record: ScannedRecord | undefined) => void,
): Promise<void> {
  const ownLines = new OwnLineScanner();
  for (const { path, fd, end } of inputs) {
    for await (const { lines } of journalLines(path, {
      fd,
      ...(end === undefined ? {} : { end }),
      chunkBytes: streamChunkBytes,
    })) {
      for (const line of lines) {
        if (line === '') continue;
        const record = recordOn(line, ownLines);
        visit(line, typeof record === 'string' ? undefined : record);
      }
    }
  }
}

const none = 0;
const open = 1;
const closed = 2;

const bufferedBytes = 1024 * 1024;

/** What compacting one cut did. */
export interface CutSummary {
  archived: CompactionReport['archived'];
  open: CompactionReport['open'];
  damaged: number;
}

/** Sorts the records of J.open-<n-1> and cut n into their files; undefined when the cut is gone. */
export async function sortCut(journal: string, generation: number, id: string): Promise<CutSummary | undefined> {
  const length = cutLengthOf(journal, generation, id);
  if (length === undefined) return undefined;
  const inputs: Input[] = [];
  try {
    if (generation > 1)
      inputs.push({
        path: openRecordsPath(journal, generation - 1),
        fd: openSync(openRecordsPath(journal, generation - 1), 'r'),
        end: undefined,
      });
    inputs.push({
      path: segmentPath(journal, generation, id),
      fd: openSync(segmentPath(journal, generation, id), 'r'),
      end: length,
    });
    return await sortRecords(journal, generation, id, inputs);
  } finally {
    for (const { fd } of inputs) closeSync(fd);
  }
}

async function sortRecords(
  journal: string,
  generation: number,
  id: string,
  inputs: readonly Input[],
): Promise<CutSummary> {
  const summary: CutSummary = {
    archived: { transactions: 0, records: 0, files: [] },
    open: { transactions: 0, records: 0, file: openRecordsPath(journal, generation) },
    damaged: 0,
  };
  // First pass: where each transaction ends, and its day.
  const index = new TransactionIndex();
  const status = growable(Uint8Array);
  const dayNumber = growable(Uint16Array);
  const days: string[] = [];
  const dayNumbers = new Map<string, number>();
  const numberOfDay = (day: string) => {
    let number = dayNumbers.get(day);
    if (number === undefined) dayNumbers.set(day, (number = days.push(day) - 1));
    return number;
  };
  try {
    await scanInputs(inputs, (_line, record) => {
      if (record === undefined) return;
      let number = index.get(record.owner, record.id);
      if (number === undefined) {
        number = index.add(record.owner, record.id);
        ensureLength(status, number + 1);
        ensureLength(dayNumber, number + 1);
        status[number] = none;
      }
      if (record.kind === 'intent') {
        // Any intent of a transaction not open opens it (a new attempt); its day is its last intent's.
        status[number] = open;
        dayNumber[number] = numberOfDay(dayOf(record));
      } else if (status[number] === none) {
        // An outcome with no intent before it (its transaction was archived before): archived by its own day.
        dayNumber[number] = numberOfDay(dayOf(record));
      } else if (status[number] === open && isFinalState(record.state)) {
        status[number] = closed;
      }
    });

    // Second pass: each record to where its transaction goes.
    const openFile = new AsideFile(journal, generation);
    const archives = new Map<number, AsideFile>();
    const damaged: string[] = [];
    const counted = new Uint8Array(index.size);
    let buffered = 0;
    try {
      await scanInputs(inputs, (line, record) => {
        if (record === undefined) {
          damaged.push(line);
          return;
        }
        const number = index.get(record.owner, record.id)!;
        const firstRecord = counted[number] === 0;
        counted[number] = 1;
        if (status[number] === open) {
          buffered += openFile.add(line);
          if (firstRecord) summary.open.transactions++;
        } else {
          let archive = archives.get(dayNumber[number]!);
          if (archive === undefined) archives.set(dayNumber[number]!, (archive = new AsideFile(journal, generation)));
          buffered += archive.add(line);
          summary.archived.records++;
          if (firstRecord) summary.archived.transactions++;
        }
        if (buffered > bufferedBytes) {
          for (const file of [openFile, ...archives.values()]) file.flush();
          buffered = 0;
        }
      });
      summary.open.records = openFile.lines;
      summary.damaged = damaged.length;

      // The archive first, then the damaged lines, then the open records: cut n is compacted once those have their name.
      if (archives.size > 0) mkdirSync(archiveDirectory(journal), { recursive: true, mode: 0o700 });
      for (const [number, file] of archives) {
        file.finish();
        const path = archivePath(journal, days[number]!, generation);
        publish(file.path, path);
        summary.archived.files.push(path);
      }
      if (archives.size > 0) syncDirectory(archiveDirectory(journal));
      if (damaged.length > 0) moveDamaged(journal, `${generation}-${id}`, damaged);
      openFile.finish();
      publish(openFile.path, openRecordsPath(journal, generation));
      syncDirectory(dirname(journal));
      return summary;
    } finally {
      for (const file of [openFile, ...archives.values()]) removeFile(file.path);
    }
  } finally {
    index.release();
    release(status, dayNumber);
  }
}

/**
 * Appends the damaged lines of a cut to J.damaged under a header naming the cut, unless a
 * compaction of the same cut did already: they are moved once.
 */
function moveDamaged(journal: string, cut: string, lines: readonly string[]): void {
  const path = damagedPath(journal);
  const header = `# agentpay ledger compact, cut ${cut}: ${lines.length} damaged line${lines.length === 1 ? '' : 's'}`;
  try {
    if (`\n${readFileSync(path, 'latin1')}`.includes(`\n${header}\n`)) return;
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw error;
  }
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
  try {
    writeAll(fd, Buffer.from(`${header}\n${lines.join('\n')}\n`, 'latin1'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncDirectory(dirname(path));
}
