import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { StateFile } from './state-file.js';

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

const keyOf = (agentId: string, transactionId: string) => `${agentId}:${transactionId}`;

/**
 * The sandbox's transactions: in memory, or in an append-only JSON Lines file so that several
 * processes (each `--sandbox` run starts its own server) see one state. Every change appends
 * the whole record; the last record for a key wins. On a file, memory holds only where each
 * transaction's latest record is (state-file.ts), so that a long run's payments do not pile up
 * in the process. Changes run under a lock directory so two processes cannot both create the
 * same TransactionID.
 */
export class TransactionStore {
  /** Without a state file: the transactions themselves. */
  private readonly byKey = new Map<string, StoredTransaction>();
  private readonly file: StateFile | undefined;
  private readonly path: string | undefined;
  /** The highest RequestID handed out, so the next one is always new (also across processes). */
  private lastRequestId = firstRequestId - 1n;

  constructor(path?: string) {
    this.path = path;
    if (path) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.file = path === undefined ? undefined : new StateFile(path);
  }

  get size(): number {
    this.refresh();
    return this.file?.size ?? this.byKey.size;
  }

  find(agentId: string, transactionId: string): StoredTransaction | undefined {
    this.refresh();
    return this.known(agentId, transactionId);
  }

  /** Returns the existing transaction for this id, or creates one: never two (spec 3, rule 2). */
  createOnce(
    agentId: string,
    transactionId: string,
    make: (requestId: string) => StoredTransaction,
  ): { transaction: StoredTransaction; created: boolean } {
    return this.locked(() => {
      const existing = this.known(agentId, transactionId);
      if (existing) return { transaction: existing, created: false };
      return { transaction: this.createNew(make), created: true };
    });
  }

  /**
   * Creates a transaction with a new RequestID even when the id exists, replacing the one
   * known by it: what a gateway that breaks spec 3, rule 2 does (`--break idempotency`).
   */
  createAgain(make: (requestId: string) => StoredTransaction): { transaction: StoredTransaction; created: boolean } {
    return this.locked(() => ({ transaction: this.createNew(make), created: true }));
  }

  update(transaction: StoredTransaction): void {
    this.locked(() => this.write(transaction));
  }

  all(): StoredTransaction[] {
    this.refresh();
    return this.file?.all() ?? [...this.byKey.values()];
  }

  private known(agentId: string, transactionId: string): StoredTransaction | undefined {
    return this.file ? this.file.find(agentId, transactionId) : this.byKey.get(keyOf(agentId, transactionId));
  }

  private createNew(make: (requestId: string) => StoredTransaction): StoredTransaction {
    const transaction = make((this.lastRequestId + 1n).toString());
    this.write(transaction);
    return transaction;
  }

  private write(transaction: StoredTransaction): void {
    if (this.file) this.file.append(transaction);
    else this.byKey.set(keyOf(transaction.agentId, transaction.transactionId), transaction);
    this.noteRequestId(transaction);
  }

  private noteRequestId(transaction: StoredTransaction): void {
    const requestId = BigInt(transaction.requestId);
    if (requestId > this.lastRequestId) this.lastRequestId = requestId;
  }

  /** Takes in what other processes appended since the last look. */
  private refresh(): void {
    this.file?.refresh((transaction) => this.noteRequestId(transaction));
  }

  private locked<T>(action: () => T): T {
    if (!this.path) return action();
    const lock = `${this.path}.lock`;
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        // A lock older than a few seconds was left by a process that died holding it.
        try {
          if (Date.now() - statSync(lock).mtimeMs > 5_000) rmdirSync(lock);
        } catch {
          // gone already
        }
        if (Date.now() > deadline) throw new Error(`sandbox state is locked: ${lock}`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
    }
    try {
      this.refresh();
      return action();
    } finally {
      rmdirSync(lock);
    }
  }
}

/**
 * Files a paid, final transaction (100.00 KZT to static service 201, success) as a Payment
 * would, without one: what the bench looks up (scripts/bench/sandbox.mjs, from dist/).
 * @public
 */
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
