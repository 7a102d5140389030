import { t } from '../i18n/current.js';
import type { RegistryLayout } from './layout.js';
import { RegistryFileError, type RegistryRow, type RegistrySummary, readRegistry } from './read.js';
import { RegistryIndex, RepeatedRowError } from './registry-index.js';

/** How many rows are dated another day than the one compared (`--date`), and the first of them. */
export interface AnotherDay {
  rows: number;
  first: { line: number; date: string } | undefined;
}

/**
 * The registry at `path` read into an index, with its count and sum of rows; given the day
 * compared, also how many rows are dated another day, and the first such (counted as they
 * come, nothing held a row).
 */
export async function loadRegistryIndex(
  path: string,
  layout: RegistryLayout,
  comparedDay?: string,
): Promise<{ index: RegistryIndex; read: RegistrySummary; anotherDay: AnotherDay }> {
  const index = new RegistryIndex(path);
  const anotherDay: AnotherDay = { rows: 0, first: undefined };
  const add = (row: RegistryRow) => {
    index.add(row);
    if (comparedDay === undefined || row.date === comparedDay) return;
    anotherDay.rows++;
    anotherDay.first ??= { line: row.line, date: row.date };
  };
  try {
    return { index, read: await readRegistry(path, layout, add), anotherDay };
  } catch (error) {
    if (!(error instanceof RepeatedRowError)) throw error;
    const first = await firstLineOf(path, layout, error.transactionId);
    const said = t().registry;
    throw new RegistryFileError(said.listedAgain(said.line(path, error.line), error.transactionId, first), {
      hint: said.correctedHint,
    });
  }
}

/** Stops the reading at the row looked for. */
class Found {
  constructor(readonly line: number) {}
}

/** The line of the first row with this TransactionID, read again from the file: the index keeps no line a row. */
async function firstLineOf(path: string, layout: RegistryLayout, transactionId: string): Promise<number> {
  try {
    await readRegistry(path, layout, (row) => {
      if (row.transactionId === transactionId) throw new Found(row.line);
    });
  } catch (error) {
    if (error instanceof Found) return error.line;
    throw error;
  }
  throw new Error(`TransactionID ${transactionId} was not found again in ${path}`);
}
