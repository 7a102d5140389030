// Types of postgres-server.mjs, for the tests that start it.
export interface PostgresServer {
  port: number;
  password: string;
  /** A postgres:// URL of `database` (default "postgres") with the server's user and password. */
  url(database?: string): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}
/** `keptCluster`: where the first server's initdb cluster is kept, copied by the next ones. */
export function startPostgres(options?: { keptCluster?: string }): Promise<PostgresServer>;
/** Copies what is inside `from` into the directory `to`, modes and links kept, files hard-linked where they can be. */
export function copyTree(from: string, to: string): void;
