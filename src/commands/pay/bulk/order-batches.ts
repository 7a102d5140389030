import type { BulkRun } from '../../../ledger/bulk-run.js';
import type { OrderRow } from './order-row.js';

/** The orders read, on their way into the ledger's table of the file a batch at a time. */
export class OrderBatches {
  private batch: OrderRow[] = [];
  count = 0;

  constructor(private readonly run: BulkRun) {}

  push(row: OrderRow): void {
    this.batch.push(row);
    this.count++;
  }

  /** Sends a batch once `batchRows` are read (all that is left, with `all`). */
  async drain(all = false): Promise<void> {
    if (this.batch.length < (all ? 1 : batchRows)) return;
    const batch = this.batch;
    this.batch = [];
    await this.run.add(batch);
  }
}

/** Orders sent to the ledger in one statement. */
const batchRows = 500;
