import type { RecentPayment } from '../../../ledger/ledger.js';
import { FirstSeen } from './first-seen.js';

const noPayments: readonly RecentPayment[] = [];

/**
 * The ledger's recent payments grouped by account, asked once for each row of a file. Not a Map
 * keyed by the account: Node 26's V8 copies a string it has not seen into the old generation
 * when a Map or Set is asked for it, so a lookup a row left ~32 bytes a row there, dead but kept
 * until V8's next full collection (a 1,000,000-row `--dry-run` peaked at ~250 MB rather than
 * ~180). FirstSeen hashes the text itself and compares it with ===, which copies nothing.
 */
export class PaymentsByAccount {
  private readonly firstOf: FirstSeen;
  /** The next payment to the same account, by index, or -1. */
  private readonly next: Int32Array;

  constructor(private readonly payments: readonly RecentPayment[]) {
    this.firstOf = new FirstSeen((index) => payments[index]!.intent.account, payments.length);
    this.next = new Int32Array(payments.length).fill(-1);
    // The last payment so far of each account, by the index of its first.
    const last = new Int32Array(payments.length);
    payments.forEach((payment, index) => {
      const first = this.firstOf.firstOrAdd(index, payment.intent.account);
      if (first !== -1) this.next[last[first]!] = index;
      last[first === -1 ? index : first] = index;
    });
  }

  /** The payments to `account`, in the order the ledger gave them. */
  of(account: string): readonly RecentPayment[] {
    if (this.payments.length === 0) return noPayments;
    const mine: RecentPayment[] = [];
    for (let index = this.firstOf.find(account); index !== -1; index = this.next[index]!)
      mine.push(this.payments[index]!);
    return mine.length === 0 ? noPayments : mine;
  }
}
