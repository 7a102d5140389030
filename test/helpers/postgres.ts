import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type PostgresServer, startPostgres as startServer } from '../../scripts/postgres-server.mjs';

export type { PostgresServer };

/** A server of its own, its cluster copied from one initdb made once in the run's temporary root. */
export const startPostgres = (): Promise<PostgresServer> =>
  startServer({ keptCluster: join(tmpdir(), 'agentpay-pg-cluster') });

let databases = 0;

/** A new, empty database on the server, for one test: its URL. */
export async function freshDatabase(server: PostgresServer): Promise<string> {
  const name = `ledger_${process.pid}_${++databases}`;
  await sql(server.url(), `CREATE DATABASE ${name}`);
  return server.url(name);
}

/** Runs one statement on the database at `url` and gives its rows. */
export async function sql<Row extends Record<string, unknown> = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}
