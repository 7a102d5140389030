import type { RegistryLayout } from './layout.js';
import { RegistryFileError, type RegistrySummary, readRegistry } from './read.js';
import { RegistryIndex, RepeatedRowError } from './registry-index.js';

/** The registry at `path` read into an index, with its count and sum of rows. */
export async function loadRegistryIndex(
  path: string,
  layout: RegistryLayout,
): Promise<{ index: RegistryIndex; read: RegistrySummary }> {
  const index = new RegistryIndex(path);
  try {
    return { index, read: await readRegistry(path, layout, (row) => index.add(row)) };
  } catch (error) {
    if (!(error instanceof RepeatedRowError)) throw error;
    const first = await firstLineOf(path, layout, error.transactionId);
    throw new RegistryFileError(
      `registry ${path} line ${error.line}: TransactionID ${error.transactionId} is listed again (first on line ${first}); the registry contradicts itself`,
      { hint: 'ask the provider for a corrected registry; nothing was compared' },
    );
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
