import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { publish, removeFile, syncDirectory, writeAll } from '../../durable.js';
import { errnoCodeOf, LocalStorageError, UsageError } from '../../errors.js';
import { ensureLength, growable, release } from '../../packed/growable.js';
import { TransactionIndex } from '../../packed/transaction-index.js';
import { isFinalState } from '../records.js';
import { cutLength } from './cut-length.js';
import {
  archiveDirectory,
  archivePath,
  currentGeneration,
  cutDirectory,
  damagedPath,
  type JournalState,
  journalState,
  openRecordsPath,
  randomId,
  segmentPath,
  temporaryPath,
} from './journal-files.js';
import { intentTime, OwnLineScanner, type ScannedRecord } from './line-format.js';
import { journalLines, recordOn, streamChunkBytes } from './reader.js';

/**
 * `ledger compact` for the journal file (docs/reliability.md, "Compacting the journal"). The
 * files are named in journal-files.ts. In short, for cut n:
 * 1. claim: a directory `J.cut-<n>` holding this compaction's own `<id>/` appears at once, by
 *    renaming a directory prepared aside onto it (rename(2) refuses to replace a directory that
 *    is not empty, so one compaction holds cut n); then cut: rename J to `J.cut-<n>/<id>/journal`.
 *    Writers append to a fresh J from then on (writer.ts re-writes a line that raced the rename).
 *    A compaction that finds cut n claimed but not cut waits a moment, then removes the empty
 *    `<id>/`, which it can only do while it is empty: the claimant's rename then fails (ENOENT)
 *    instead of cutting, so taking a claim over needs no process id and is never unsafe.
 * 2. the length read of the cut is fixed once, in `J.archive/cut-<n>.<inode>.length`, by the
 *    first to look into it (cut-length.ts cutLength): readers read no further, a line
 *    written past it is written again to J by its writer (writer.ts), and every compaction of
 *    cut n reads the same bytes, so they all write the same files.
 * 3. the records of `J.open-<n-1>` and the cut are sorted: transactions still open go, in
 *    order, to `J.open-<n>`; closed ones to `J.archive/<day>.<n>.jsonl` (the UTC day of their
 *    last intent); lines that are not records to `J.damaged`. Each file is written aside,
 *    fsynced, and given its name with link(2), which never replaces one: the archive first,
 *    then `J.damaged`, then `J.open-<n>`, whose existence is what says cut n is compacted.
 * 4. the cut and `J.open-<n-1>` are removed.
 * A compaction killed at any point leaves files the next one finishes from, and readers read
 * meanwhile (open-for-reading.ts openLiveFiles).
 */

export interface CompactionReport {
  journal: string;
  /** The cuts this run compacted: its own, after any a compaction before it left. */
  cuts: number[];
  archived: { transactions: number; records: number; files: string[] };
  /** What is still open after the last cut compacted here. */
  open: { transactions: number; records: number; file: string | undefined };
  damaged: { lines: number; file: string | undefined };
}

/** How long a claim may stay without its cut before another compaction takes it over. */
const claimPatienceMs = 250;
/** A temporary file of a cut not yet compacted, older than this, was left by a compaction that died. */
const abandonedAfterMs = 3_600_000;

/**
 * Cuts are numbered from the newest `J.open-<n>`. If those were removed by hand while the
 * archive was kept, numbering would start again and meet the archive's own cuts (their kept
 * lengths, their file names): refused rather than guessed.
 */
function refuseLostGenerations(journal: string): void {
  let names: string[];
  try {
    names = readdirSync(archiveDirectory(journal));
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return;
    throw error;
  }
  const archived = Math.max(0, ...names.map((name) => Number(/^cut-(\d{1,9})\./.exec(name)?.[1] ?? /\.(\d{1,9})\.jsonl$/.exec(name)?.[1] ?? 0)));
  const current = currentGeneration(journalState(journal));
  const cutsUnderWay = journalState(journal).cuts.some((cut) => cut.generation > current);
  if (archived > current && !cutsUnderWay) {
    throw new LocalStorageError('compact the journal', journal, new Error(`its archive holds cut ${archived} but the newest ${basename(journal)}.open-<n> is ${current}`), {
      consequence: 'nothing was compacted',
      hint: `the journal's open records were removed by hand? put ${basename(journal)}.open-${archived} back, or move ${basename(journal)}.archive aside`,
    });
  }
}

export async function compactJournal(journal: string): Promise<CompactionReport> {
  const report: CompactionReport = {
    journal,
    cuts: [],
    archived: { transactions: 0, records: 0, files: [] },
    open: { transactions: 0, records: 0, file: undefined },
    damaged: { lines: 0, file: undefined },
  };
  refuseLink(journal);
  refuseLostGenerations(journal);
  let mine: number | undefined;
  for (;;) {
    const state = journalState(journal);
    const generation = currentGeneration(state);
    removeLeftovers(journal, state, generation);
    if (mine !== undefined && generation >= mine) return report;
    const next = state.cuts.find((cut) => cut.generation === generation + 1);
    const holder = next?.holders.find((h) => h.cut) ?? next?.holders[0];
    if (holder?.cut) {
      await compactCut(journal, generation + 1, holder.id, report);
      continue;
    }
    if (holder !== undefined) {
      await takeOver(journal, generation + 1, holder.id);
      continue;
    }
    // Its own cut gone without J.open-<n> (removed by hand?): stop rather than cut again.
    if (mine !== undefined) return report;
    const cut = cutJournal(journal, generation + 1);
    if (cut === 'nothing') return report;
    if (cut === 'cut') mine = generation + 1;
  }
}

// ---------------------------------------------------------------- claiming and cutting

/**
 * A journal that is a symbolic link would be compacted as the link: the link renamed away and
 * removed, the file it names kept but no longer read. Refused; its real path works.
 */
function refuseLink(journal: string): void {
  try {
    if (!lstatSync(journal).isSymbolicLink()) return;
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return;
    throw error;
  }
  throw new UsageError(`the journal ${journal} is a symbolic link: ledger compact renames the journal itself, so give the path of the file it names`, {
    hint: `agentpay --journal ${realpathSync(journal)} ledger compact`,
  });
}

/** rmdir(2) of a directory, if it is there and empty. */
function removeEmptyDirectory(directory: string): void {
  try {
    rmdirSync(directory);
  } catch (error) {
    if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes(errnoCodeOf(error) ?? '')) throw error;
  }
}

/** Lets go of a claim: its holder's directory, and the claim's if that leaves it empty. */
function releaseClaim(journal: string, generation: number, id: string): void {
  removeEmptyDirectory(join(cutDirectory(journal, generation), id));
  removeEmptyDirectory(cutDirectory(journal, generation));
}

/** Claims cut n and renames J into it: 'cut', or 'nothing' (no journal to cut), or 'lost' (another took cut n). */
function cutJournal(journal: string, generation: number): 'cut' | 'nothing' | 'lost' {
  try {
    if (statSync(journal).size === 0) return 'nothing';
  } catch (error) {
    if (errnoCodeOf(error) === 'ENOENT') return 'nothing';
    throw error;
  }
  const id = randomId();
  const aside = temporaryPath(journal, `${generation}-${id}`);
  mkdirSync(join(aside, id), { recursive: true, mode: 0o700 });
  const claim = cutDirectory(journal, generation);
  try {
    renameSync(aside, claim);
  } catch (error) {
    rmSync(aside, { recursive: true, force: true });
    // Taken (ENOTEMPTY, EEXIST), or its directory aside removed as left over from a stale look (ENOENT).
    if (['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errnoCodeOf(error) ?? '')) return 'lost';
    throw error;
  }
  // Claimed from a stale look: cut n was compacted meanwhile, and its claim left empty.
  if (currentGeneration(journalState(journal)) >= generation) {
    releaseClaim(journal, generation, id);
    return 'lost';
  }
  try {
    renameSync(journal, segmentPath(journal, generation, id));
  } catch (error) {
    if (errnoCodeOf(error) !== 'ENOENT') throw error;
    // Either the claim was taken over (its directory removed), or the journal is gone.
    if (!existsSync(join(claim, id))) return 'lost';
    releaseClaim(journal, generation, id);
    return 'nothing';
  }
  for (const directory of [join(claim, id), claim, dirname(journal)]) syncDirectory(directory);
  return 'cut';
}

/** Cut n is claimed but not cut: wait for the cut a moment, then take the claim over (see above). */
async function takeOver(journal: string, generation: number, id: string): Promise<void> {
  const holder = join(cutDirectory(journal, generation), id);
  for (let waited = 0; waited < claimPatienceMs; waited += 10) {
    if (!existsSync(holder) || existsSync(segmentPath(journal, generation, id))) return;
    await sleep(10);
  }
  // Not empty: it cut after all, and is compacted next time round.
  removeEmptyDirectory(holder);
}

/** Removes what compacted cuts and earlier open records leave, and old temporary files. */
function removeLeftovers(journal: string, state: JournalState, generation: number): void {
  let removed = false;
  for (const cut of state.cuts) {
    if (cut.generation > generation) continue;
    for (const { id } of cut.holders) {
      removeFile(segmentPath(journal, cut.generation, id));
      removeFile(lengthPath(journal, cut.generation, id));
    }
    for (const { id } of cut.holders) removeEmptyDirectory(join(cutDirectory(journal, cut.generation), id));
    removeEmptyDirectory(cutDirectory(journal, cut.generation));
    removed = true;
  }
  for (const older of state.openGenerations) {
    if (older >= generation) continue;
    removeFile(openRecordsPath(journal, older));
    removed = true;
  }
  const now = Date.now();
  for (const path of state.temporaries) {
    // Named after the cut they are for: once it is compacted, nobody needs them.
    const cut = /\.tmp-(\d+)-\w+$/.exec(path);
    try {
      if ((cut === null || Number(cut[1]) > generation) && now - lstatSync(path).mtimeMs < abandonedAfterMs) continue;
    } catch (error) {
      if (errnoCodeOf(error) === 'ENOENT') continue;
      throw error;
    }
    rmSync(path, { recursive: true, force: true });
    removed = true;
  }
  if (removed) syncDirectory(dirname(journal));
}

// ---------------------------------------------------------------- the length read of a cut

/** Where an earlier version kept a cut's length: removed with the cut. */
const lengthPath = (journal: string, generation: number, id: string) => join(cutDirectory(journal, generation), id, 'length');

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

// ---------------------------------------------------------------- sorting the records of a cut

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
async function scanInputs(inputs: readonly Input[], visit: (line: string, record: ScannedRecord | undefined) => void): Promise<void> {
  const ownLines = new OwnLineScanner();
  for (const { path, fd, end } of inputs) {
    for await (const { lines } of journalLines(path, { fd, ...(end === undefined ? {} : { end }), chunkBytes: streamChunkBytes })) {
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

/** A file written aside in byte text, a buffer at a time; opened only to write (cuts may span many days). */
class AsideFile {
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

const bufferedBytes = 1024 * 1024;

/** What compacting one cut did. */
interface CutSummary {
  archived: CompactionReport['archived'];
  open: CompactionReport['open'];
  damaged: number;
}

/** Compacts cut n (step 2 to 4 above), adding what it did to the report. */
async function compactCut(journal: string, generation: number, id: string, report: CompactionReport): Promise<void> {
  let summary: CutSummary | undefined;
  try {
    summary = await sortCut(journal, generation, id);
    if (summary === undefined) return;
    removeFile(segmentPath(journal, generation, id));
    removeFile(lengthPath(journal, generation, id));
    releaseClaim(journal, generation, id);
    if (generation > 1) removeFile(openRecordsPath(journal, generation - 1));
    syncDirectory(dirname(journal));
  } catch (error) {
    // A file gone from under it: another compaction compacted cut n meanwhile and removed what
    // was no longer needed (its temporary files included).
    if (errnoCodeOf(error) === 'ENOENT' && currentGeneration(journalState(journal)) >= generation) return;
    throw error;
  }
  report.cuts.push(generation);
  report.archived.transactions += summary.archived.transactions;
  report.archived.records += summary.archived.records;
  report.archived.files.push(...summary.archived.files);
  report.open = summary.open;
  if (summary.damaged > 0) {
    report.damaged.lines += summary.damaged;
    report.damaged.file = damagedPath(journal);
  }
}

/** Sorts the records of J.open-<n-1> and cut n into their files; undefined when the cut is gone. */
async function sortCut(journal: string, generation: number, id: string): Promise<CutSummary | undefined> {
  const length = cutLengthOf(journal, generation, id);
  if (length === undefined) return undefined;
  const inputs: Input[] = [];
  try {
    if (generation > 1) inputs.push({ path: openRecordsPath(journal, generation - 1), fd: openSync(openRecordsPath(journal, generation - 1), 'r'), end: undefined });
    inputs.push({ path: segmentPath(journal, generation, id), fd: openSync(segmentPath(journal, generation, id), 'r'), end: length });
    return await sortRecords(journal, generation, id, inputs);
  } finally {
    for (const { fd } of inputs) closeSync(fd);
  }
}

async function sortRecords(journal: string, generation: number, id: string, inputs: readonly Input[]): Promise<CutSummary> {
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
