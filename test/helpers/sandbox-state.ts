import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type StoredTransaction, TransactionStore } from '../../src/sandbox/state.js';

/** Where `--sandbox` keeps its state for an env: under its XDG_STATE_HOME. */
export const embeddedStateOf = (env: Record<string, string>) =>
  join(env.XDG_STATE_HOME!, 'agentpay', 'sandbox-state.sqlite');

/** The transactions a sandbox state file holds, read as another process would (it must exist). */
export function storedTransactions(path: string): StoredTransaction[] {
  if (!existsSync(path)) throw new Error(`no sandbox state at ${path}`);
  const store = new TransactionStore(path);
  try {
    return store.all();
  } finally {
    store.close();
  }
}

/** A state file's bytes and its write-ahead log's, as text: wherever a leaked secret could be. */
export function stateFileBytes(path: string): string {
  return [path, `${path}-wal`]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('utf8'))
    .join('\n');
}
