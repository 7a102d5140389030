import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { Query, Row } from '../sql/rows.js';
import { type WriteTurnPlace, whenFree } from './write-turn.js';

/** Columns SQLite keeps as JSON text that the shared reads (sql/rows.ts) take as values. */
const jsonColumns = ['view', 'outcome_view', 'overrides', 'records'] as const;

/** A value as SQLite binds it: a time as ISO text (as the ledger stores it), a list as JSON text. */
function bound(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return JSON.stringify(value);
  return value as SQLInputValue;
}

function parsed(row: Row): Row {
  for (const column of jsonColumns)
    if (typeof row[column] === 'string') row[column] = JSON.parse(row[column] as string) as unknown;
  return row;
}

/** The database's statements, prepared once each, written with PostgreSQL's $n (turned into SQLite's ?n). */
export class Statements {
  private readonly prepared = new Map<string, StatementSync>();

  constructor(private readonly place: WriteTurnPlace) {}

  private statement(text: string): StatementSync {
    let statement = this.prepared.get(text);
    if (statement === undefined) {
      statement = this.place.database.prepare(text.replaceAll(/\$(\d+)/g, '?$1'));
      this.prepared.set(text, statement);
    }
    return statement;
  }

  all(text: string, values: readonly unknown[] = []): Row[] {
    return (this.statement(text).all(...values.map(bound)) as Row[]).map(parsed);
  }

  get(text: string, values: readonly unknown[] = []): Row | undefined {
    const row = this.statement(text).get(...values.map(bound)) as Row | undefined;
    return row === undefined ? undefined : parsed(row);
  }

  run(text: string, values: readonly unknown[] = []): number {
    return Number(this.statement(text).run(...values.map(bound)).changes);
  }

  // The shared reads' query, waiting out another process's lock; what SQLite cannot read is the storage failing.
  readonly query: Query = (text, values, consequence) =>
    whenFree(this.place, () => this.all(text, values), { action: 'read the ledger', consequence });
}
