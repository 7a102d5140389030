import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { Query, Row } from '../sql/rows.js';
import { storageError } from './database.js';

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

  constructor(
    private readonly database: DatabaseSync,
    private readonly path: string,
  ) {}

  private statement(text: string): StatementSync {
    let statement = this.prepared.get(text);
    if (statement === undefined) {
      statement = this.database.prepare(text.replaceAll(/\$(\d+)/g, '?$1'));
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

  /** The shared reads' query: what SQLite cannot read is the ledger's storage failing (exit 5). */
  readonly query: Query = async (text, values, consequence) => {
    try {
      return this.all(text, values);
    } catch (error) {
      // SQLite's failures are the storage's; any other error is a bug, an internal error (exit 70).
      throw error instanceof Error && 'errcode' in error
        ? storageError('read the ledger', this.path, error, consequence)
        : error;
    }
  };
}
