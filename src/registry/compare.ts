import type { PaymentRow } from '../ledger/ledger.js';
import { localDay } from '../local-day.js';
import { addDecimals, isPlainDecimal, sameDecimal } from '../protocol/money.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import type { RegistryIndex } from './registry-index.js';

/**
 * Registry reconciliation, headless: the registry is held, the ledger streamed past it. The
 * registry's rows are read as a stream into a compact index (registry-index.ts: some 35 bytes
 * a row, no string a row); the ledger's entries, however many, are looked at one at a time and
 * only disagreements are kept.
 *
 * A registry lists what the provider counts as paid. So: a ledger success it lists at the same
 * amount (as exact decimals) agrees; at another amount, or a ledger failure or open transaction
 * it lists, is "different"; a ledger success or open transaction of the compared days it does
 * not list is "only in the ledger"; a ledger failure it does not list agrees; a row matching no
 * ledger entry is "only in the registry". A row dated outside the compared days (`--date`) is
 * never compared: it is "dated another day", with the ledger's side when the ledger has it.
 */
const findingLists = ['only-in-registry', 'only-in-ledger', 'different', 'dated-another-day'] as const;
export type FindingList = (typeof findingLists)[number];

export interface Finding {
  list: FindingList;
  transactionId: string;
  /** `YYYY-MM-DD`: the registry's date where it lists the payment, else the ledger's (local) day. */
  date: string;
  account: string;
  registryAmount: string | null;
  ledgerAmount: string | null;
  /** "paid" when the registry lists it. */
  registryState: 'paid' | null;
  ledgerState: TransactionState | null;
}

/** Per list: how many, and the exact sums of each side's amounts. */
export interface ListTally {
  count: number;
  registrySum: string;
  ledgerSum: string;
}

export class RegistryComparison {
  readonly tallies: Record<FindingList, ListTally> = {
    'only-in-registry': { count: 0, registrySum: '0', ledgerSum: '0' },
    'only-in-ledger': { count: 0, registrySum: '0', ledgerSum: '0' },
    different: { count: 0, registrySum: '0', ledgerSum: '0' },
    'dated-another-day': { count: 0, registrySum: '0', ledgerSum: '0' },
  };
  /** Ledger entries that matched a row and agree. */
  agreed = 0;

  /**
   * `days`: the days compared. The ledger's entries of other days count only when the registry
   * lists them; the registry's rows of other days are listed apart, never as agreeing.
   */
  constructor(
    private readonly registry: RegistryIndex,
    private readonly days: ReadonlySet<string>,
  ) {}

  /** One ledger payment (the latest word on a transaction): its finding, or undefined when the two sides agree or it is not of the compared days. */
  visit(payment: PaymentRow): Finding | undefined {
    const row = this.registry.take(payment.transactionId);
    if (row === undefined) {
      if (payment.state === 'failed' || !this.days.has(localDay(new Date(payment.at)))) return undefined;
      return this.count({
        list: 'only-in-ledger',
        ...this.ledgerSide(payment),
        registryAmount: null,
        registryState: null,
      });
    }
    if (!this.days.has(row.date)) {
      return this.count({
        list: 'dated-another-day',
        ...this.ledgerSide(payment),
        date: row.date,
        registryAmount: row.amount,
        registryState: 'paid',
      });
    }
    if (payment.state === 'success' && (row.amount === payment.amount || sameDecimal(row.amount, payment.amount))) {
      this.agreed++;
      return undefined;
    }
    return this.count({
      list: 'different',
      ...this.ledgerSide(payment),
      date: row.date,
      registryAmount: row.amount,
      registryState: 'paid',
    });
  }

  /** The rows of the compared days no ledger entry matched, counted as they go. */
  *onlyInRegistry(): Generator<Finding> {
    for (const finding of this.registry.left((date) => this.days.has(date))) yield this.count(finding);
  }

  /** The rows of other days no ledger entry matched, counted as they go. */
  *unmatchedOfAnotherDay(): Generator<Finding> {
    for (const finding of this.registry.left((date) => !this.days.has(date)))
      yield this.count({ ...finding, list: 'dated-another-day' });
  }

  private ledgerSide({ transactionId, at, account, amount, state }: PaymentRow) {
    return { transactionId, date: localDay(new Date(at)), account, ledgerAmount: amount, ledgerState: state };
  }

  private count(finding: Finding): Finding {
    const tally = this.tallies[finding.list];
    tally.count++;
    // Amounts the ledger holds are plain decimals (money.ts parseAmount); anything else is left out of a sum rather than guessed.
    if (finding.registryAmount !== null) tally.registrySum = addDecimals(tally.registrySum, finding.registryAmount);
    if (finding.ledgerAmount !== null && isPlainDecimal(finding.ledgerAmount))
      tally.ledgerSum = addDecimals(tally.ledgerSum, finding.ledgerAmount);
    return finding;
  }
}
