import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { isBusy } from '../sqlite-busy.js';

/** One transaction as the sandbox remembers it. No credential is ever stored. */
export interface StoredTransaction {
  agentId: string;
  transactionId: string;
  requestId: string;
  service: string;
  account: string;
  amount: string;
  currency: string;
  invoiceId: string | null;
  status: number;
  message: string;
  exchangeRate: string;
  serviceCurrency: string;
  createdAt: string;
  /** Status polls left before a pending payment turns final (--pending). */
  pendingPollsLeft: number;
}

/** RequestIDs start above 2^53 so that every client is tested on Longs a double cannot hold. */
const firstRequestId = 9007199254740993n;

/** A sandbox state file that cannot be opened as one (another kind of file, a directory, no access). */
export class SandboxStateError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot open the sandbox state ${path}: ${reason}`);
  }
}

// Amounts and ids are TEXT, as they came; the key is what spec 3, rule 2 makes unique.
const schema = `
CREATE TABLE IF NOT EXISTS transactions (
  agent_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  service TEXT NOT NULL,
  account TEXT NOT NULL,
  amount TEXT NOT NULL,
  currency TEXT NOT NULL,
  invoice_id TEXT,
  status INTEGER NOT NULL,
  message TEXT NOT NULL,
  exchange_rate TEXT NOT NULL,
  service_currency TEXT NOT NULL,
  created_at TEXT NOT NULL,
  pending_polls_left INTEGER NOT NULL,
  PRIMARY KEY (agent_id, transaction_id)
) STRICT;
CREATE TABLE IF NOT EXISTS request_ids (last INTEGER NOT NULL) STRICT;
`;

const columns = `agent_id AS agentId, transaction_id AS transactionId, request_id AS requestId, service, account,
  amount, currency, invoice_id AS invoiceId, status, message, exchange_rate AS exchangeRate,
  service_currency AS serviceCurrency, created_at AS createdAt, pending_polls_left AS pendingPollsLeft`;

const insert = `INSERT INTO transactions (agent_id, transaction_id, request_id, service, account, amount, currency,
  invoice_id, status, message, exchange_rate, service_currency, created_at, pending_polls_left)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)`;

const replace = `${insert} ON CONFLICT (agent_id, transaction_id) DO UPDATE SET request_id = excluded.request_id,
  service = excluded.service, account = excluded.account, amount = excluded.amount, currency = excluded.currency,
  invoice_id = excluded.invoice_id, status = excluded.status, message = excluded.message,
  exchange_rate = excluded.exchange_rate, service_currency = excluded.service_currency,
  created_at = excluded.created_at, pending_polls_left = excluded.pending_polls_left`;

// The sandbox's transactions in SQLite, a file shared by processes (each --sandbox run starts its own server)
// or in memory. A change is one transaction under the write lock, so no TransactionID is created twice.
export class TransactionStore {
  private readonly db: DatabaseSync;
  private readonly statements: Record<'find' | 'insert' | 'replace' | 'nextRequestId', StatementSync>;

  constructor(path?: string) {
    this.db = openDatabase(path);
    const nextRequestId = this.db.prepare('UPDATE request_ids SET last = last + 1 RETURNING last');
    nextRequestId.setReadBigInts(true);
    this.statements = {
      find: this.db.prepare(`SELECT ${columns} FROM transactions WHERE agent_id = ?1 AND transaction_id = ?2`),
      insert: this.db.prepare(insert),
      replace: this.db.prepare(replace),
      nextRequestId,
    };
  }

  get size(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  }

  find(agentId: string, transactionId: string): StoredTransaction | undefined {
    const row = this.statements.find.get(agentId, transactionId);
    return row === undefined ? undefined : { ...(row as unknown as StoredTransaction) };
  }

  /** Returns the existing transaction for this id, or creates one: never two (spec 3, rule 2). */
  createOnce(
    agentId: string,
    transactionId: string,
    make: (requestId: string) => StoredTransaction,
  ): { transaction: StoredTransaction; created: boolean } {
    return inWriteTransaction(this.db, () => {
      const existing = this.find(agentId, transactionId);
      if (existing) return { transaction: existing, created: false };
      const transaction = make(this.nextRequestId());
      // The primary key refuses a second one, should the look-up above ever miss it.
      this.statements.insert.run(...valuesOf(transaction));
      return { transaction, created: true };
    });
  }

  // A new transaction with a new RequestID even when the id exists: what `--break idempotency` does (spec 3).
  createAgain(make: (requestId: string) => StoredTransaction): { transaction: StoredTransaction; created: boolean } {
    return inWriteTransaction(this.db, () => {
      const transaction = make(this.nextRequestId());
      this.statements.replace.run(...valuesOf(transaction));
      return { transaction, created: true };
    });
  }

  update(transaction: StoredTransaction): void {
    this.statements.replace.run(...valuesOf(transaction));
  }

  /** Every transaction, in the order they were first created. */
  all(): StoredTransaction[] {
    const rows = this.db.prepare(`SELECT ${columns} FROM transactions ORDER BY rowid`).all();
    return rows.map((row) => ({ ...(row as unknown as StoredTransaction) }));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  private nextRequestId(): string {
    return String((this.statements.nextRequestId.get() as { last: bigint }).last);
  }
}

/** The state's database, its tables made if new; in memory without a path. */
function openDatabase(path: string | undefined): DatabaseSync {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path === undefined ? ':memory:' : createdPrivate(path));
    db.exec('PRAGMA busy_timeout = 10000');
    const opened = db;
    whileSwitchBusy(() => opened.exec('PRAGMA journal_mode = WAL'));
    opened.exec('PRAGMA synchronous = FULL');
    inWriteTransaction(opened, () => {
      opened.exec(schema);
      opened
        .prepare('INSERT INTO request_ids (last) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM request_ids)')
        .run(firstRequestId - 1n);
    });
    return db;
  } catch (error) {
    if (db?.isOpen) db.close();
    if (path === undefined) throw error;
    throw new SandboxStateError(path, (error as Error).message);
  }
}

// Two processes making the file switch it to WAL at once: SQLite answers one BUSY without its busy timeout
// (waiting could deadlock), so that one tries again a while.
function whileSwitchBusy(work: () => void): void {
  const until = Date.now() + 10_000;
  for (;;) {
    try {
      return work();
    } catch (error) {
      if (!isBusy(error) || Date.now() > until) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** One write transaction, its lock taken at the start: another process's waits for it. */
function inWriteTransaction<T>(db: DatabaseSync, action: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = action();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** The state file, made private (0600) before SQLite opens it: its -wal and -shm take the file's mode. */
function createdPrivate(path: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  return path;
}

function valuesOf(transaction: StoredTransaction): SQLInputValue[] {
  const t = transaction;
  return [
    t.agentId,
    t.transactionId,
    t.requestId,
    t.service,
    t.account,
    t.amount,
    t.currency,
    t.invoiceId,
    t.status,
    t.message,
    t.exchangeRate,
    t.serviceCurrency,
    t.createdAt,
    t.pendingPollsLeft,
  ];
}

/** Files a paid, final transaction (100.00 KZT, service 201) for the bench (scripts/bench/sandbox.mjs). @public */
export function seedPaidTransaction(
  store: TransactionStore,
  agentId: string,
  transactionId: string,
  account: string,
): StoredTransaction {
  return store.createOnce(agentId, transactionId, (requestId) => ({
    agentId,
    transactionId,
    requestId,
    service: '201',
    account,
    amount: '100.00',
    currency: 'KZT',
    invoiceId: null,
    status: 10,
    message: 'Успех',
    exchangeRate: '1',
    serviceCurrency: 'KZT',
    createdAt: '2026-01-01T00:00:00.000Z',
    pendingPollsLeft: 0,
  })).transaction;
}
