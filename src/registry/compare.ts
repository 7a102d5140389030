import type { JournalEntry } from '../journal/ledger.js';
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

const separator = '\u0001';

/** The registry's rows by TransactionID, each packed in one string. */
export class RegistryIndex {
  private readonly rows = new Map<string, string>();
  /** The days the registry's rows are dated. */
  readonly days = new Set<string>();

  constructor(private readonly path: string) {}

  add(row: RegistryRow): void {
    const earlier = this.rows.get(row.transactionId);
    if (earlier !== undefined) {
      throw new RegistryFileError(
        `registry ${this.path} line ${row.line}: TransactionID ${row.transactionId} is listed again (first on line ${earlier.split(separator)[3]}); the registry contradicts itself`,
        { hint: 'ask the provider for a corrected registry; nothing was compared' },
      );
    }
    this.days.add(row.date);
    this.rows.set(row.transactionId, [row.date, row.account, row.amount, String(row.line)].join(separator));
  }

  has(transactionId: string): boolean {
    return this.rows.has(transactionId);
  }

  /** The row of a TransactionID, taken out of the index (what is left at the end is only in the registry). */
  take(transactionId: string): { date: string; account: string; amount: string } | undefined {
    const packed = this.rows.get(transactionId);
    if (packed === undefined) return undefined;
    this.rows.delete(transactionId);
    const [date = '', account = '', amount = ''] = packed.split(separator);
    return { date, account, amount };
  }

  /** The rows no ledger entry matched, in the registry's order. */
  *left(): Generator<Finding> {
    for (const [transactionId, packed] of this.rows) {
      const [date = '', account = '', amount = ''] = packed.split(separator);
      yield { list: 'only-in-registry', transactionId, date, account, registryAmount: amount, ledgerAmount: null, registryState: 'paid', ledgerState: null };
    }
  }
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
  };
  /** Ledger entries that matched a row and agree. */
  agreed = 0;

  /** `days`: the days compared (the ledger's entries of other days count only when the registry lists them). */
  constructor(
    private readonly registry: RegistryIndex,
    private readonly days: ReadonlySet<string>,
  ) {}

  /** One ledger entry (the latest word on a transaction): its finding, or undefined when the two sides agree or it is not of the compared days. */
  visit(entry: JournalEntry): Finding | undefined {
    const { intent, outcome } = entry;
    const ledgerState: TransactionState = outcome?.view.state ?? 'unknown';
    const row = this.registry.take(intent.transactionId);
    if (row === undefined) {
      if (ledgerState === 'failed' || !this.days.has(localDay(new Date(intent.at)))) return undefined;
      return this.count({ list: 'only-in-ledger', ...this.ledgerSide(entry, ledgerState), registryAmount: null, registryState: null });
    }
    if (ledgerState === 'success' && (row.amount === intent.amount || sameDecimal(row.amount, intent.amount))) {
      this.agreed++;
      return undefined;
    }
    return this.count({ list: 'different', ...this.ledgerSide(entry, ledgerState), date: row.date, registryAmount: row.amount, registryState: 'paid' });
  }

  /** The rows no ledger entry matched, counted as they go. */
  *onlyInRegistry(): Generator<Finding> {
    for (const finding of this.registry.left()) yield this.count(finding);
  }

  private ledgerSide({ intent }: JournalEntry, ledgerState: TransactionState) {
    return { transactionId: intent.transactionId, date: localDay(new Date(intent.at)), account: intent.account, ledgerAmount: intent.amount, ledgerState };
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
