import type { JournalEntry } from './records.js';

/** A bulk run's rows in the ledger: while planned, in a table of the connection's own; once paid,
 * in `agentpay_bulk_rows` (cells and TransactionID by line, before any Payment). A resume is a query. */

/** One order of the file, known by the line it starts on. */
export interface BulkOrder {
  line: number;
  key: string | undefined;
  service: string;
  account: string;
  currency: string;
  invoiceId: string | undefined;
  invoicePosition: number | undefined;
  amount: string | undefined;
}

/** What planning learns of a row, kept beside its order until the run ends. */
export interface BulkPlan {
  /** The earlier run's when it had the row (`earlier`), else given before any Payment leaves. */
  transactionId: string | undefined;
  start: 'final' | 'open' | 'new' | undefined;
  paidAmount: string | undefined;
  paidInvoiceId: string | undefined;
  voucher: string | undefined;
  /** The desk's guards lifted for the row: "over-limit", "allow-duplicate". */
  lifted: string[];
}

export interface PlannedRow extends BulkOrder, BulkPlan {
  /** Whether an earlier run of the file had this row (found by `resume`). */
  earlier: boolean;
  /** The ledger's entry for the row's TransactionID, when it holds one (its latest attempt, its latest word). */
  entry: JournalEntry | undefined;
}

/** A row an earlier run kept that the file has otherwise now (`now`), or no longer has. */
export interface ChangedBulkRow {
  was: BulkOrder;
  now: BulkOrder | undefined;
}

export interface PageOptions {
  entries?: boolean;
  only?: 'earlier' | 'vouchers';
}

export interface BulkRun {
  /** Orders of the file, in its order, a batch at a time. */
  add(orders: readonly BulkOrder[]): Promise<void>;
  /** The rows whose key an earlier row of the file has, with that row's line, in file order. */
  keysTwice(): Promise<{ line: number; key: string; first: number }[]>;
  /** The rows that repeat an earlier row's purchase (every cell but the key): line → the first one's line. */
  purchasesTwice(): Promise<Map<number, number>>;
  /** The rows the earlier runs under `runKey` kept that the file changed or lost; when none, each
   * row of the file an earlier run had takes that run's TransactionID and counts as `earlier`. */
  resume(runKey: string): Promise<ChangedBulkRow[]>;
  /** How many rows the file has. */
  count(): Promise<number>;
  /** The currencies of its rows, each once. */
  currencies(): Promise<string[]>;
  /** The rows after `afterLine`, at most `limit`, in file order, with the ledger's entries unless
   * `entries` is false; `only` the rows an earlier run had, or the rows to pay whose voucher a
   * check must find (an InvoiceId or a position given). */
  page(afterLine: number, limit: number, options?: PageOptions): Promise<PlannedRow[]>;
  /** The rows no earlier run had start new, paying what their orders say. */
  startNew(): Promise<void>;
  /** What planning learned of these rows. */
  update(rows: readonly (BulkPlan & { line: number })[]): Promise<void>;
  /** The accounts of the rows not final, each once, after `after` in their order, at most `limit`. */
  accounts(after: string, limit: number): Promise<string[]>;
  /** These rows' TransactionIDs, and the rows an earlier run did not have kept as the run's under
   * `runKey`, in one transaction: before any of their Payments may leave. */
  keep(runKey: string, rows: readonly { line: number; transactionId: string }[]): Promise<void>;
  /** The file's rows let go (a run's kept rows stay). */
  close(): Promise<void>;
}
