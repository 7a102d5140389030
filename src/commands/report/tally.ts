import { AgentpayError, ExitCode } from '../../errors.js';
import { addDecimals, isPlainDecimal } from '../../protocol/money.js';
import { type TransactionState, transactionStates } from '../../protocol/transaction-view.js';
import { type ReportDimension, type ReportGroup, type ReportTotal, reportDimensions } from '../../render/report.js';

// The report's arithmetic, pure: payments summed into groups as they stream, only the groups held. Currency is
// always in a group's key, so no sum adds two currencies.

/** The grouping when `--by` is not given. */
const defaultDimensions: readonly ReportDimension[] = ['service', 'state'];

/** One payment as the report sees it: the ledger's latest word on it, and what was sent. */
export interface ReportPayment {
  transactionId: string;
  service: string;
  /** Who made it, where the ledger records it. */
  operator: string | null;
  /** The supervisor who approved it (ledger/approval-marks.ts); null for a payment that needed none. */
  approvedBy: string | null;
  currency: string;
  amount: string;
  state: TransactionState;
}

// An amount the report cannot add (not a plain decimal): a wrong sum is worse than none, so exit 6.
export class UnsummableAmountError extends AgentpayError {
  override name = 'UnsummableAmountError';
  constructor(transactionId: string, amount: string) {
    super(
      `transaction ${transactionId} has the amount ${JSON.stringify(amount)} in the ledger, not a plain decimal: no sum is printed`,
      ExitCode.localStorage,
      {
        hint: 'agentpay history shows the record; fix the ledger, or report a range without it',
      },
    );
  }
}

const stateRank = (state: string | null | undefined) => transactionStates.indexOf(state as TransactionState);
// Made on first use: every command's start-up loads this module through report's option parser,
// while only a report sorts (docs/performance.md).
let collator: Intl.Collator | undefined;
const compareText = (left: string, right: string) =>
  (collator ??= new Intl.Collator('en', { numeric: true })).compare(left, right);

/** Two groups in report order: dimension by dimension (states in their own order, ids numerically), then currency. */
function compareGroups(dimensions: readonly ReportDimension[]) {
  return (a: ReportGroup, b: ReportGroup): number => {
    for (const dimension of dimensions) {
      const left = a.keys[dimension] ?? '';
      const right = b.keys[dimension] ?? '';
      const order = dimension === 'state' ? stateRank(left) - stateRank(right) : compareText(left, right);
      if (order !== 0) return order;
    }
    return compareText(a.currency, b.currency);
  };
}

/** Parses `--by` as given (repeated, comma-separated), in the order first named; the default when none. */
export function parseDimensions(values: readonly string[]): ReportDimension[] | string {
  const named = values.flatMap((value) => value.split(',')).map((value) => value.trim());
  const dimensions: ReportDimension[] = [];
  for (const name of named) {
    if (!(reportDimensions as readonly string[]).includes(name)) return name;
    if (!dimensions.includes(name as ReportDimension)) dimensions.push(name as ReportDimension);
  }
  return dimensions.length === 0 ? [...defaultDimensions] : dimensions;
}

export class ReportTally {
  private readonly groups = new Map<string, ReportGroup>();

  constructor(readonly dimensions: readonly ReportDimension[]) {}

  add(payment: ReportPayment): void {
    if (!isPlainDecimal(payment.amount)) {
      throw new UnsummableAmountError(payment.transactionId, payment.amount);
    }
    const keys: ReportGroup['keys'] = {};
    for (const dimension of this.dimensions) keys[dimension] = payment[dimension];
    const key = JSON.stringify([...this.dimensions.map((dimension) => keys[dimension]), payment.currency]);
    const group = this.groups.get(key);
    if (group === undefined) {
      this.groups.set(key, { keys, currency: payment.currency, count: 1, sum: payment.amount });
      return;
    }
    group.count++;
    group.sum = addDecimals(group.sum, payment.amount);
  }

  /** The groups in report order. */
  results(): ReportGroup[] {
    return [...this.groups.values()].sort(compareGroups(this.dimensions));
  }

  /** One total per currency, in currency order: its groups' counts and sums. */
  totals(): ReportTotal[] {
    const totals = new Map<string, ReportTotal>();
    for (const group of this.groups.values()) {
      const total = totals.get(group.currency);
      if (total === undefined)
        totals.set(group.currency, { currency: group.currency, count: group.count, sum: group.sum });
      else {
        total.count += group.count;
        total.sum = addDecimals(total.sum, group.sum);
      }
    }
    return [...totals.values()].sort((a, b) => compareText(a.currency, b.currency));
  }
}
