import { t } from '../run-scope.js';
import type { RegistryComparison } from './compare.js';
import { builtInLayouts, type RegistryLayout } from './layout.js';
import { RegistryFileError, type RegistryRow, type RegistrySummary, readRegistry } from './read.js';

/** How many rows are dated another day than the one compared (`--date`), and the first of them. */
export interface AnotherDay {
  rows: number;
  first: { line: number; date: string } | undefined;
}

// The registry at `path` read into the comparison's table with its count and sum; given the day compared, how
// many rows are dated another day and the first such. A TransactionID listed twice ends the reading.
export async function loadRegistry(
  comparison: RegistryComparison,
  path: string,
  layout: RegistryLayout,
  comparedDay?: string,
): Promise<{ read: RegistrySummary; anotherDay: AnotherDay }> {
  const anotherDay: AnotherDay = { rows: 0, first: undefined };
  const add = (row: RegistryRow) => {
    const first = comparison.addRow(row);
    if (first !== undefined) {
      const said = t().registry;
      throw new RegistryFileError(said.listedAgain(said.line(path, row.line), row.transactionId, first), {
        hint: said.correctedHint,
      });
    }
    if (comparedDay === undefined || row.date === comparedDay) return;
    anotherDay.rows++;
    anotherDay.first ??= { line: row.line, date: row.date };
  };
  return { read: await readRegistry(path, layout, add), anotherDay };
}

/** The layout --registry-format names: a built-in one, or a mapping file (JSON or YAML), read and validated. */
export async function registryLayoutOf(format: string | undefined, registryPath: string): Promise<RegistryLayout> {
  if (format === undefined) return builtInLayouts[registryPath.toLowerCase().endsWith('.csv') ? 'csv' : 'tsv']!;
  const builtIn = builtInLayouts[format];
  if (builtIn !== undefined) return builtIn;
  const { readMappingFile } = await import('./mapping-file.js');
  return readMappingFile(format);
}
