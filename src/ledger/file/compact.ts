import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { errnoCodeOf, LocalStorageError, UsageError } from '../../errors.js';
import { cutJournal, takeOver } from './compact-claim.js';
import { removeCompactedCut, removeLeftovers } from './compact-leftovers.js';
import { type CutSummary, sortCut } from './compact-sort.js';
import { archiveDirectory, currentGeneration, damagedPath, journalState } from './journal-files.js';

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
 * meanwhile (open-for-reading.ts openLiveFiles). Step 1 is compact-claim.ts, steps 2 and 3
 * compact-sort.ts, step 4 compact-leftovers.ts; this file runs them, cut after cut.
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
  const archived = Math.max(
    0,
    ...names.map((name) => Number(/^cut-(\d{1,9})\./.exec(name)?.[1] ?? /\.(\d{1,9})\.jsonl$/.exec(name)?.[1] ?? 0)),
  );
  // One look at the journal's files for both: read twice, another compaction could finish its
  // cut in between, first showing its open records missing, then its cut gone, both from one
  // moment that never was (its archive written, the open records not yet).
  const state = journalState(journal);
  const current = currentGeneration(state);
  const cutsUnderWay = state.cuts.some((cut) => cut.generation > current);
  if (archived > current && !cutsUnderWay) {
    throw new LocalStorageError(
      'compact the journal',
      journal,
      new Error(`its archive holds cut ${archived} but the newest ${basename(journal)}.open-<n> is ${current}`),
      {
        consequence: 'nothing was compacted',
        hint: `the journal's open records were removed by hand? put ${basename(journal)}.open-${archived} back, or move ${basename(journal)}.archive aside`,
      },
    );
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
  throw new UsageError(
    `the journal ${journal} is a symbolic link: ledger compact renames the journal itself, so give the path of the file it names`,
    {
      hint: `agentpay --journal ${realpathSync(journal)} ledger compact`,
    },
  );
}

/** Compacts cut n (step 2 to 4 above), adding what it did to the report. */
async function compactCut(journal: string, generation: number, id: string, report: CompactionReport): Promise<void> {
  let summary: CutSummary | undefined;
  try {
    summary = await sortCut(journal, generation, id);
    if (summary === undefined) return;
    removeCompactedCut(journal, generation, id);
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
