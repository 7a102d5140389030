import { existsSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

/**
 * Every text the SQLite ledger at `path` holds, for tests that look for what must never be
 * stored (a password): each cell of each table as text, and the file's bytes and its WAL's
 * (pages a row left behind too), read as UTF-8.
 */
export function storedTexts(path: string): { where: string; value: string }[] {
  const stored: { where: string; value: string }[] = [];
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
    for (const { name } of tables as { name: string }[]) {
      const columns = database.prepare(`SELECT name FROM pragma_table_info(?1)`).all(name) as { name: string }[];
      for (const column of columns) {
        const rows = database.prepare(`SELECT CAST("${column.name}" AS TEXT) AS value FROM "${name}"`).all();
        for (const row of rows as { value: string | null }[])
          stored.push({ where: `${name}.${column.name}`, value: row.value ?? '' });
      }
    }
  } finally {
    database.close();
  }
  for (const file of [path, `${path}-wal`])
    if (existsSync(file)) stored.push({ where: file, value: readFileSync(file).toString('utf8') });
  return stored;
}
