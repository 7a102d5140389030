import type { PaymentRow } from '../journal/payments.js';
import { TransactionIndex } from '../journal/transaction-index.js';
import { localDay } from '../local-day.js';
import { addDecimals, isPlainDecimal, sameDecimal } from '../protocol/money.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import { RegistryFileError, type RegistryRow } from './read.js';

/**
 * Registry reconciliation, headless: the registry is held, the ledger streamed past it. The
 * registry's rows go into a compact map (TransactionID → one short string of date, time,
 * account, amount and line), so 200,000 of them take a few tens of megabytes; the ledger's
 * entries, however many, are looked at one at a time and only disagreements are kept.
 *
 * A registry lists what the provider counts as paid. So: a ledger success it lists at the same
 * amount (as exact decimals) agrees; at another amount, or a ledger failure or open transaction
 * it lists, is "different"; a ledger success or open transaction of the compared days it does
 * not list is "only in the ledger"; a ledger failure it does not list agrees; a row matching no
 * ledger entry is "only in the registry".
 */
const findingLists = ['only-in-registry', 'only-in-ledger', 'different'] as const;
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

/**
 * The registry's rows by TransactionID: the ids only in a TransactionIndex (a Long in 10 packed
 * bytes, open addressing; an id string kept would also keep the whole piece of the file it was
 * cut from), the rest in arrays by row number, rows taken out marked (docs/performance.md,
 * target 11).
 */
export class RegistryIndex {
  private readonly ids = new TransactionIndex();
  private readonly dates: string[] = [];
  private readonly accounts: string[] = [];
  private readonly amounts: string[] = [];
  private readonly lines: number[] = [];
  private readonly taken: boolean[] = [];
  private lastDay = '';
  /** The row after the last one taken. */
  private next = 0;
  /** The days the registry's rows are dated. */
  readonly days = new Set<string>();

  constructor(private readonly path: string) {}

  add(row: RegistryRow): void {
    const known = this.ids.size;
    const number = this.ids.numberOf(anyOwner, row.transactionId);
    if (number < known) {
      throw new RegistryFileError(
        `registry ${this.path} line ${row.line}: TransactionID ${row.transactionId} is listed again (first on line ${this.lines[number]}); the registry contradicts itself`,
        { hint: 'ask the provider for a corrected registry; nothing was compared' },
      );
    }
    // Rows come in date order: a day is added once, not once a row.
    if (row.date !== this.lastDay) this.days.add((this.lastDay = row.date));
    this.dates[number] = row.date;
    this.accounts[number] = row.account;
    this.amounts[number] = row.amount;
    this.lines[number] = row.line;
    this.taken[number] = false;
  }

  has(transactionId: string): boolean {
    return this.ids.get(anyOwner, transactionId) !== undefined;
  }

  /** The row of a TransactionID, taken out of the index (what is left at the end is only in the registry). */
  take(transactionId: string): { date: string; account: string; amount: string } | undefined {
    // A registry lists a day's payments in the order they were made, as the ledger gives them:
    // the row after the last one taken is tried before the index.
    const number = this.ids.is(this.next, anyOwner, transactionId) ? this.next : this.ids.get(anyOwner, transactionId);
    if (number === undefined || this.taken[number]) return undefined;
    this.taken[number] = true;
    this.next = number + 1;
    return { date: this.dates[number]!, account: this.accounts[number]!, amount: this.amounts[number]! };
  }

  /** The rows no ledger entry matched, in the registry's order. */
  *left(): Generator<Finding> {
    for (let number = 0; number < this.ids.size; number++) {
      if (this.taken[number]) continue;
      const [transactionId, date, account, registryAmount] = [this.ids.idOf(number), this.dates[number]!, this.accounts[number]!, this.amounts[number]!];
      yield { list: 'only-in-registry', transactionId, date, account, registryAmount, ledgerAmount: null, registryState: 'paid', ledgerState: null };
    }
  }
}

/** The registry's ids are one list: the index's owner is the same for all. */
const anyOwner = '';

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
  };
  /** Ledger entries that matched a row and agree. */
  agreed = 0;

  /** `days`: the days compared (the ledger's entries of other days count only when the registry lists them). */
  constructor(
    private readonly registry: RegistryIndex,
    private readonly days: ReadonlySet<string>,
  ) {}

  /** One ledger payment (the latest word on a transaction): its finding, or undefined when the two sides agree or it is not of the compared days. */
  visit(payment: PaymentRow): Finding | undefined {
    const row = this.registry.take(payment.transactionId);
    if (row === undefined) {
      if (payment.state === 'failed' || !this.days.has(localDay(new Date(payment.at)))) return undefined;
      return this.count({ list: 'only-in-ledger', ...this.ledgerSide(payment), registryAmount: null, registryState: null });
    }
    if (payment.state === 'success' && (row.amount === payment.amount || sameDecimal(row.amount, payment.amount))) {
      this.agreed++;
      return undefined;
    }
    return this.count({ list: 'different', ...this.ledgerSide(payment), date: row.date, registryAmount: row.amount, registryState: 'paid' });
  }

  /** The rows no ledger entry matched, counted as they go. */
  *onlyInRegistry(): Generator<Finding> {
    for (const finding of this.registry.left()) yield this.count(finding);
  }

  private ledgerSide({ transactionId, at, account, amount, state }: PaymentRow) {
    return { transactionId, date: localDay(new Date(at)), account, ledgerAmount: amount, ledgerState: state };
  }

  private count(finding: Finding): Finding {
    const tally = this.tallies[finding.list];
    tally.count++;
    // Amounts the ledger holds are plain decimals (money.ts parseAmount); anything else is left out of a sum rather than guessed.
    if (finding.registryAmount !== null) tally.registrySum = addDecimals(tally.registrySum, finding.registryAmount);
    if (finding.ledgerAmount !== null && isPlainDecimal(finding.ledgerAmount)) tally.ledgerSum = addDecimals(tally.ledgerSum, finding.ledgerAmount);
    return finding;
  }
}
