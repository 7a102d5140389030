import { closeSync, readSync } from 'node:fs';
import { TransactionIndex } from '../../packed/transaction-index.js';
import { transactionStates } from '../../protocol/transaction-view.js';
import type { HistoryEntries, HistoryFilter, JournalEntry, LedgerFilter } from '../ledger.js';
import { attemptReopens, replacesOutcome } from '../records.js';
import { EntryPlaces, type FarOutcome, noOutcome, noState, stateNumber } from './entry-places.js';
import { intentGateway, intentTime, OwnLineScanner, recordOf, type ScannedRecord } from './line-format.js';
import type { OpenedFile } from './open-for-reading.js';
import { type JournalWarning, journalLines, recordOn, scanJournal } from './reader.js';

/**
 * Every transaction with its latest outcome, in order of first intent, streamed in two passes
 * over the files so that memory does not grow with the records shown:
 * - the first pass finds, for each transaction, the line of its first wanted intent and of
 *   the outcome that is its latest word (a final state is never replaced by a later non-final
 *   one; a later intent after a final outcome is a new attempt, open until its own answer),
 *   keeping ~45 bytes a transaction (TransactionIndex, EntryPlaces);
 * - the second pass reads the same files (the same open descriptors, up to where the first
 *   stopped) and yields each entry at its intent, its outcome taken from a line read a little
 *   later (within entry-places.ts nearLines) or read directly at its offset (pread).
 * The state and gateway filters are applied between the passes, so the second reads only the
 * entries shown. The files are read in the order given, as one journal, and closed when done.
 */

/** The intent line of a transaction the filters leave out (lines count from 1). */
const hidden = 0;

interface OpenFile {
  path: string;
  fd: number;
  /** Bytes the first pass read: the second stops there (appends made since are not planned). */
  end: number;
}

/** The first pass: the places of every wanted transaction. */
async function planEntries(opened: readonly OpenedFile[], filter: LedgerFilter, warn: JournalWarning) {
  const index = new TransactionIndex();
  const places = new EntryPlaces();
  const gateways: string[] = [];
  const gatewayNumbers = new Map<string, number>();
  const files: OpenFile[] = opened.map(({ path, fd }) => ({ path, fd, end: 0 }));
  // Where each file's lines that count end (a cut's fixed length, J's size when opened: open-for-reading.ts).
  const ends = opened.map(({ end }) => (end === undefined ? {} : { end }));
  let lineBase = 0;
  const since = filter.since?.getTime();
  try {
    for (const [fileNumber, file] of files.entries()) {
      const { path, fd } = file;
      let lines = 0;
      file.end = await scanJournal(
        path,
        warn,
        (record, at) => {
          lines = at.line;
          const line = lineBase + at.line;
          const number = index.get(record.owner, record.id);
          if (record.kind === 'intent') {
            if (number === undefined) {
              if (since !== undefined && Date.parse(intentTime(record)) < since) return;
              const added = index.add(record.owner, record.id);
              places.ensure(added + 1);
              places.intentLine[added] = line;
              const gateway = intentGateway(record);
              let gatewayNumber = gatewayNumbers.get(gateway);
              if (gatewayNumber === undefined)
                gatewayNumbers.set(gateway, (gatewayNumber = gateways.push(gateway) - 1));
              if (gatewayNumber > 0xffff)
                throw new Error('more than 65,536 gateways in one journal: beyond what history indexes');
              places.gateway[added] = gatewayNumber;
            } else if (
              places.state[number] !== noState &&
              attemptReopens(transactionStates[places.state[number]! - 1]!)
            ) {
              places.clearOutcome(number);
            }
            return;
          }
          if (number === undefined) return;
          const current = places.state[number]!;
          if (replacesOutcome(current === noState ? undefined : transactionStates[current - 1]!, record.state)) {
            places.setOutcome(number, line, record.state, { file: fileNumber, offset: at.offset, length: at.length });
          }
        },
        { fd, ...ends[fileNumber] },
      );
      lineBase += lines;
    }
  } catch (error) {
    closeFiles(files);
    places.release();
    throw error;
  } finally {
    index.release();
  }
  return { count: index.size, places, gateways, files };
}

/** Every transaction with its latest outcome, in order of first intent, in two passes (see above). */
export async function latestEntries(
  opened: readonly OpenedFile[],
  filter: HistoryFilter,
  warn: JournalWarning,
): Promise<HistoryEntries> {
  const { count, places, gateways, files } = await planEntries(opened, filter, warn);
  const gatewayWanted = gateways.map((gateway) => filter.gateway === undefined || gateway === filter.gateway);
  const wantedState = filter.state === undefined ? undefined : stateNumber(filter.state);
  let shownCount = 0;
  const shownGateways = new Set<number>();
  for (let number = 0; number < count; number++) {
    const state = places.state[number] === noState ? stateNumber('unknown') : places.state[number];
    if (!gatewayWanted[places.gateway[number]!] || (wantedState !== undefined && state !== wantedState)) {
      places.intentLine[number] = hidden;
      continue;
    }
    shownCount++;
    shownGateways.add(places.gateway[number]!);
  }
  if (shownCount === 0) {
    closeFiles(files);
    places.release();
  }
  let iterated = false;
  return {
    gateways: [...shownGateways].sort((a, b) => a - b).map((number) => gateways[number]!),
    allGateways: gateways,
    [Symbol.asyncIterator]: () => {
      // The second pass reads the descriptors of the first and closes them when done.
      if (iterated) throw new Error('history entries are read once');
      iterated = true;
      return readEntries(files, places, count, shownCount);
    },
  };
}

/** A slot of the queue whose entry was yielded. */
const passed = { entry: undefined as unknown as JournalEntry, ready: true };

/** The second pass. */
async function* readEntries(
  files: readonly OpenFile[],
  places: EntryPlaces,
  count: number,
  shownCount: number,
): AsyncGenerator<JournalEntry> {
  if (shownCount === 0) return;
  const ownLines = new OwnLineScanner();
  const read = (line: string): ScannedRecord => {
    const record = recordOn(line, ownLines);
    if (typeof record === 'string') throw new Error(`a journal line changed between two readings: ${record}`);
    return record;
  };
  const queue: { entry: JournalEntry; ready: boolean }[] = [];
  let head = 0;
  const waiting = new Map<number, { entry: JournalEntry; ready: boolean }>();
  let next = 0;
  let lineNumber = 0;
  try {
    for (const file of files) {
      for await (const { lines } of journalLines(file.path, { fd: file.fd, end: file.end })) {
        for (const line of lines) {
          lineNumber++;
          const waiter = waiting.get(lineNumber);
          if (waiter !== undefined) {
            waiter.entry.outcome = recordOf(read(line)) as JournalEntry['outcome'];
            waiter.ready = true;
            waiting.delete(lineNumber);
          }
          while (next < count && places.intentLine[next] === hidden) next++;
          if (next === count || places.intentLine[next] !== lineNumber) continue;
          const number = next++;
          const item = {
            entry: { intent: recordOf(read(line)) as JournalEntry['intent'], outcome: undefined } as JournalEntry,
            ready: true,
          };
          const distance = places.outcomeDistance[number]!;
          const far = places.far.get(number);
          if (far !== undefined)
            item.entry.outcome = recordOf(read(readAt(files[far.file]!, far))) as JournalEntry['outcome'];
          else if (distance !== noOutcome) {
            item.ready = false;
            waiting.set(lineNumber + distance, item);
          }
          queue.push(item);
        }
        while (head < queue.length && queue[head]!.ready) {
          const { entry } = queue[head]!;
          // The slot lets go of what it yields: an entry the reader has done with is garbage at once,
          // not held by the queue until it is cut (V8 would carry it into the old generation).
          queue[head++] = passed;
          yield entry;
        }
        if (head > 1024) {
          queue.splice(0, head);
          head = 0;
        }
        if (next === count && head === queue.length) return;
      }
    }
  } finally {
    closeFiles(files);
    places.release();
  }
}

/** Closes what is still open (a descriptor closed twice may close another's that took its number). */
function closeFiles(files: readonly OpenFile[]): void {
  for (const file of files) {
    if (file.fd !== -1) closeSync(file.fd);
    file.fd = -1;
  }
}

/** An outcome line far from its intent, read at its offset. */
function readAt(file: OpenFile, { offset, length }: FarOutcome): string {
  const bytes = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const got = readSync(file.fd, bytes, done, length - done, offset + done);
    if (got === 0) break;
    done += got;
  }
  return bytes.toString('latin1', 0, done);
}
