import type { AccountSet } from '../../../ledger/ledger.js';
import { FirstSeen } from './first-seen.js';
import type { OrderStore } from './order-store.js';

/**
 * The accounts of a file's rows as a set the ledger's look-back asks one account at a time
 * (ledger.ts AccountSet): a hash over the packed rows (first-seen.ts), confirmed against the
 * rows' own text, so no string is kept per account. Lists of them are made only for a database,
 * a slice at a time. `release` gives the tables back once the look-back is read.
 */
export class FileAccounts implements AccountSet {
  private readonly firsts: FirstSeen;

  constructor(
    private readonly orders: OrderStore,
    rows: (index: number) => boolean = () => true,
  ) {
    let chosen = 0;
    for (let index = 0; index < orders.length; index++) if (rows(index)) chosen++;
    // Sized for the rows chosen: a finished run resumed chooses none.
    this.firsts = new FirstSeen((index) => orders.accountOf(index), chosen);
    for (let index = 0; index < orders.length; index++)
      if (rows(index)) this.firsts.firstOrAdd(index, orders.accountOf(index));
  }

  has(account: string): boolean {
    return this.firsts.find(account) !== -1;
  }

  *slices(size: number): Iterable<readonly string[]> {
    let slice: string[] = [];
    for (let index = 0; index < this.orders.length; index++) {
      const account = this.orders.accountOf(index);
      // Each account once: at the first row that has it.
      if (this.firsts.find(account) !== index) continue;
      slice.push(account);
      if (slice.length === size) {
        yield slice;
        slice = [];
      }
    }
    if (slice.length > 0) yield slice;
  }

  release(): void {
    this.firsts.release();
  }
}
