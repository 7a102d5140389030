import { type DeskRule, DeskRuleRefusedError } from '../../../desk-rule-error.js';
import type { BulkRun } from '../../../ledger/bulk-run.js';
import type { Intent, Owner, RecentPayment } from '../../../ledger/ledger.js';
import { addDecimals } from '../../../protocol/money.js';
import { breachText, duplicatesOf, duplicateText, limitBreaches } from '../../../purchase/desk-rules.js';
import { type BadRow, badRowsText } from '../../../render/bulk.js';
import { t } from '../../../run-scope.js';
import type { Settings } from '../../../settings/resolve.js';
import { type BulkRow, PlanWrites, rowsOf } from './plan.js';

type DeskContext = { settings: Pick<Settings, 'desk' | 'operator'> };
interface FilePolicy {
  overLimit: boolean;
  allowDuplicate: boolean;
}

/** The ledger's recent payments by account, asked once for each row of a file. */
function byAccountOf(payments: readonly RecentPayment[]): Map<string, RecentPayment[]> {
  const byAccount = new Map<string, RecentPayment[]>();
  for (const payment of payments) {
    const mine = byAccount.get(payment.intent.account);
    if (mine) mine.push(payment);
    else byAccount.set(payment.intent.account, [payment]);
  }
  return byAccount;
}

const noPayments: readonly RecentPayment[] = [];

/** A row the desk's rules refuse, and which rule. */
export interface DeskRowProblem extends BadRow {
  rule: DeskRule;
}

/** A file refused whole by the desk's rules (exit 7, nothing sent): how many rows, for the run's metrics. */
export class DeskRowsRefusedError extends DeskRuleRefusedError {
  override name = 'DeskRuleRefusedError';
  constructor(
    rule: DeskRule,
    message: string,
    readonly rows: number,
  ) {
    super(rule, message, { hint: t().bulk.badRowsHint });
  }
}

/** Each refused row on a line of its own, as for bad rows (rows.ts); --json names the first row's rule. */
export function refuseDeskRows(path: string, problems: readonly DeskRowProblem[]): void {
  const [first] = problems;
  if (first === undefined) return;
  const rows = new Set(problems.map((problem) => problem.line)).size;
  throw new DeskRowsRefusedError(first.rule, badRowsText(path === '-' ? 'stdin' : path, problems, t()), rows);
}

// Whether the desk's rules have anything to weigh in the file (a repeated row, a recent payment, a limit on one
// of its currencies); when not, no row is read for them.
export function deskWeighs(
  context: DeskContext,
  currencies: ReadonlySet<string>,
  repeats: ReadonlyMap<number, number>,
  recent: readonly RecentPayment[],
): boolean {
  const { desk } = context.settings;
  const limited = (currency: string) =>
    (['maxAmount', 'dailyLimit', 'accountDailyLimit'] as const).some(
      (kind) => desk.limit(kind, currency) !== undefined,
    );
  return repeats.size > 0 || recent.length > 0 || [...currencies].some(limited);
}

// The desk's rules over the rows to pay in file order, each weighed with the ledger's and earlier rows' payments
// (rows of unknown amount wait for the pass after the AccountChecks); `repeats` maps a repeating row to the
// first one's line. Sets each row's lifted guards; returns the rows refused.
export async function deskProblems(
  context: DeskContext,
  owner: Owner,
  run: BulkRun,
  repeats: ReadonlyMap<number, number>,
  recent: readonly RecentPayment[],
  policy: FilePolicy,
  now: Date,
): Promise<DeskRowProblem[]> {
  const { desk } = context.settings;
  const operator = context.settings.operator.value;
  const problems: DeskRowProblem[] = [];
  const windowMs = desk.duplicateWindowMs.value;
  const windowStart = new Date(now.getTime() - windowMs);
  const byAccount = byAccountOf(recent);
  const byOperator = recent.filter((payment) => payment.intent.operator === operator);
  // The file's rows so far, per currency: all of them, and per account.
  const sums = new Map<string, { all: string; byAccount: Map<string, string> }>();
  const at = now.toISOString();
  // Which rules hold for a currency, asked once per currency rather than once per row.
  const rulesByCurrency = new Map<string, { limited: boolean; daily: boolean }>();
  const rulesOf = (currency: string) => {
    let rules = rulesByCurrency.get(currency);
    if (rules === undefined) {
      const daily =
        desk.limit('dailyLimit', currency) !== undefined || desk.limit('accountDailyLimit', currency) !== undefined;
      rules = { daily, limited: daily || desk.limit('maxAmount', currency) !== undefined };
      rulesByCurrency.set(currency, rules);
    }
    return rules;
  };
  const synthetic = (account: string, amount: string, currency: string): RecentPayment => ({
    intent: {
      kind: 'intent',
      transactionId: '',
      gateway: owner.gateway,
      agentId: owner.agentId,
      service: '',
      account,
      amount,
      currency,
      invoiceId: null,
      at,
      operator,
    },
    state: undefined,
  });
  const writes = new PlanWrites(run);
  for await (const row of rowsOf(run, 0, { entries: false })) {
    const before = row.lifted.join();
    row.lifted = [];
    const first = repeats.get(row.line);
    if (first === undefined) {
      // The first row of its purchase.
    } else if (policy.allowDuplicate) row.lifted.push('allow-duplicate');
    else
      problems.push({
        line: row.line,
        column: undefined,
        message: `the same purchase as line ${first} (give --allow-duplicate if both are meant)`,
        rule: 'duplicate',
      });
    weighRow(row);
    if (row.lifted.join() !== before) await writes.put(row);
  }
  await writes.flush();
  return problems;

  function weighRow(row: BulkRow): void {
    if (row.start !== 'new' || row.paidAmount === undefined) return;
    const mine = byAccount.get(row.account) ?? noPayments;
    const { limited, daily } = rulesOf(row.currency);
    // Nothing to weigh (no limit, no recent payment to the account): no intent made.
    if (!limited && mine.length === 0) return;
    const intent: Intent = {
      transactionId: row.transactionId ?? `line ${row.line}`,
      gateway: owner.gateway,
      agentId: owner.agentId,
      service: row.service,
      account: row.account,
      amount: row.paidAmount,
      currency: row.currency,
      invoiceId: row.paidInvoiceId ?? null,
    };
    const so = sums.get(row.currency) ?? { all: '0', byAccount: new Map<string, string>() };
    const accountSum = so.byAccount.get(row.account) ?? '0';
    if (limited) {
      const others = daily ? addDecimals(so.all, `-${accountSum}`) : '0';
      const weighed = daily
        ? [
            ...new Set([...mine, ...byOperator]),
            synthetic(row.account, accountSum, row.currency),
            synthetic(`${row.account} `, others, row.currency),
          ]
        : [];
      const breaches = limitBreaches(desk, intent, operator, weighed, now);
      if (breaches.length > 0 && !policy.overLimit)
        problems.push({
          line: row.line,
          column: 'amount',
          message: t().bulk.cell.overLimit(breaches.map((breach) => breachText(breach)).join('; ')),
          rule: 'limit',
        });
      else if (breaches.length > 0) row.lifted.push('over-limit');
    }
    const duplicates = windowMs > 0 && mine.length > 0 ? duplicatesOf(intent, mine, windowStart) : [];
    if (duplicates.length > 0 && !policy.allowDuplicate) {
      problems.push({
        line: row.line,
        column: undefined,
        message: t().bulk.cell.duplicate(
          duplicates.map((payment) => duplicateText(payment, now, t(), 'object')).join('; '),
        ),
        rule: 'duplicate',
      });
    } else if (duplicates.length > 0 && !row.lifted.includes('allow-duplicate')) row.lifted.push('allow-duplicate');
    // The file's sums so far weigh only against a daily limit.
    if (daily) {
      so.all = addDecimals(so.all, row.paidAmount);
      so.byAccount.set(row.account, addDecimals(accountSum, row.paidAmount));
      sums.set(row.currency, so);
    }
  }
}
