import { readFileSync } from 'node:fs';
import type { JournalEntry, LedgerFilter } from '../../src/ledger/ledger.js';
import { readRecord } from '../../src/ledger/record-format.js';
import { type IntentRecord, isFinalState, type JournalRecord, ownerKey } from '../../src/ledger/records.js';

/*
 * The journal read the plain way, to hold the fast reading to: every line split as readline
 * splits it, through JSON.parse and readRecord, with the same ledger rules and the same warnings.
 */

async function* referenceRecords(path: string, warn: (message: string) => void): AsyncGenerator<JournalRecord> {
  // Lines end at "\n", "\r\n" or a lone "\r", as readline (crlfDelay Infinity) split them up
  // to Node 22; Node 24's readline also splits at U+2028 and U+2029, which JSON strings may hold.
  let lineNumber = 0;
  for (const line of readFileSync(path, 'utf8').split(/\r\n|\r|\n/)) {
    lineNumber++;
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?): not JSON; skipped`);
      continue;
    }
    try {
      yield readRecord(value);
    } catch (error) {
      warn(`journal ${path} line ${lineNumber} is damaged (a crash mid-write?): ${(error as Error).message}; skipped`);
    }
  }
}

const wanted = (intent: IntentRecord, filter: LedgerFilter) =>
  filter.since === undefined || Date.parse(intent.at) >= filter.since.getTime();

export async function referenceOpen(
  path: string,
  filter: LedgerFilter,
  warn: (message: string) => void,
): Promise<JournalEntry[]> {
  const open = new Map<string, JournalEntry>();
  const closed = new Set<string>();
  for await (const record of referenceRecords(path, warn)) {
    const key = ownerKey(record);
    if (record.kind === 'intent') {
      // A later intent reopens a closed transaction: a new attempt at the same purchase.
      if (closed.delete(key) || !open.has(key)) {
        if (wanted(record, filter)) open.set(key, { intent: record, outcome: undefined });
        else closed.add(key);
      }
      continue;
    }
    const entry = open.get(key);
    if (isFinalState(record.view.state)) {
      open.delete(key);
      closed.add(key);
    } else if (entry) entry.outcome = record;
  }
  return [...open.values()];
}

export async function referenceAll(
  path: string,
  filter: LedgerFilter,
  warn: (message: string) => void,
): Promise<JournalEntry[]> {
  const entries = new Map<string, JournalEntry>();
  for await (const record of referenceRecords(path, warn)) {
    const key = ownerKey(record);
    const entry = entries.get(key);
    if (record.kind === 'intent') {
      if (!entry && wanted(record, filter)) entries.set(key, { intent: record, outcome: undefined });
      // A retry after a failure is open until its own answer; a success stands whatever follows.
      else if (entry?.outcome?.view.state === 'failed') entry.outcome = undefined;
    } else if (
      entry &&
      entry.outcome?.view.state !== 'success' &&
      (entry.outcome === undefined || !isFinalState(entry.outcome.view.state) || isFinalState(record.view.state))
    ) {
      entry.outcome = record;
    }
  }
  return [...entries.values()];
}
