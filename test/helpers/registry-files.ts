import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtInLayouts, type RegistryLayout } from '../../src/registry/layout.js';
import { type RegistryRow, readRegistry } from '../../src/registry/read.js';

/** Registry files for the registry tests: each content written to a file of its own in one temporary directory, and read back. */
const directory = mkdtempSync(join(tmpdir(), 'agentpay-registry-'));
let files = 0;
export const fileOf = (content: string | Buffer) => {
  const path = join(directory, `registry-${files++}`);
  writeFileSync(path, content);
  return path;
};

/** The rows a registry of this content gives, as readRegistry hands them over, and their sum. */
export async function rowsOf(
  content: string | Buffer,
  layout: RegistryLayout,
): Promise<{ rows: RegistryRow[]; sum: string }> {
  const rows: RegistryRow[] = [];
  const { sum } = await readRegistry(fileOf(content), layout, (row) => rows.push(row));
  return { rows, sum };
}

export const tsv = builtInLayouts.tsv!;
