import type { Catalogue } from '../i18n/en.js';
import type { Intent, RecentPayment } from '../ledger/ledger.js';
import { addDecimals, compareDecimals, sameDecimal } from '../protocol/money.js';
import { t } from '../run-scope.js';
import type { DeskSettings, LimitKind, LimitRule } from '../settings/desk.js';

// The desk's rules as pure functions over recent payments (docs/desk-safety.md). A failed payment moved no money
// and counts for none; the same TransactionID again is the safe retry, never its own duplicate.

/** A limit this payment would go over, with the sum it would make. */
export interface LimitBreach {
  kind: LimitKind;
  rule: LimitRule;
  /** What the payments it adds to came to before it (the day's, or "0" for one payment). */
  sumSoFar: string;
  amount: string;
  /** Whose payments: the operator, or the account. */
  whose: string | undefined;
}

const counts = (payment: RecentPayment) => payment.state !== 'failed';

/** Local midnight of the day `now` falls on: a day's limits count from it. */
export function startOfDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** What the rules must read of the ledger: payments since when, and by whom besides the accounts'. */
export interface LookBack {
  since: Date;
  /** The operator's own payments weigh only when a daily limit is set on them. */
  operator: string | undefined;
}

// What the rules need of the ledger for these currencies: the duplicate window, or the whole day for a daily
// limit; undefined when no rule needs anything.
export function lookBackOf(
  desk: DeskSettings,
  operator: string,
  currencies: Iterable<string>,
  windowMs: number,
  now: Date,
): LookBack | undefined {
  const list = [...new Set(currencies)];
  const operatorsDay = list.some((currency) => desk.limit('dailyLimit', currency) !== undefined);
  const daily = operatorsDay || list.some((currency) => desk.limit('accountDailyLimit', currency) !== undefined);
  if (!daily && windowMs <= 0) return undefined;
  const windowStart = new Date(now.getTime() - windowMs);
  return {
    since: daily && startOfDay(now) < windowStart ? startOfDay(now) : windowStart,
    operator: operatorsDay ? operator : undefined,
  };
}

export function limitBreaches(
  desk: DeskSettings,
  intent: Intent,
  operator: string,
  payments: readonly RecentPayment[],
  now: Date,
): LimitBreach[] {
  const { amount, currency } = intent;
  const breaches: LimitBreach[] = [];
  const single = desk.limit('maxAmount', currency);
  if (single !== undefined && compareDecimals(amount, single.amount) > 0)
    breaches.push({ kind: 'maxAmount', rule: single, sumSoFar: '0', amount, whose: undefined });
  const today = startOfDay(now).getTime();
  const todays = payments.filter(
    (payment) =>
      counts(payment) &&
      payment.intent.currency === currency &&
      payment.intent.transactionId !== intent.transactionId &&
      Date.parse(payment.intent.at) >= today,
  );
  const daily: [LimitKind, (payment: RecentPayment) => boolean, string][] = [
    ['dailyLimit', (payment) => payment.intent.operator === operator, operator],
    ['accountDailyLimit', (payment) => payment.intent.account === intent.account, intent.account],
  ];
  for (const [kind, whose, name] of daily) {
    const rule = desk.limit(kind, currency);
    if (rule === undefined) continue;
    const sumSoFar = addDecimals('0', ...todays.filter(whose).map((payment) => payment.intent.amount));
    if (compareDecimals(addDecimals(sumSoFar, amount), rule.amount) > 0)
      breaches.push({ kind, rule, sumSoFar, amount, whose: name });
  }
  return breaches;
}

/** The approval threshold this payment is over (approvalOver): it needs a second person (docs/desk-safety.md, Approval). */
export function approvalBreach(desk: DeskSettings, intent: Intent): LimitBreach | undefined {
  return thresholdBreach(desk.limit('approvalOver', intent.currency), intent);
}

/** The payment against one approval threshold (a profile's, a flag's, the team ledger's): the breach, if over it. */
export function thresholdBreach(rule: LimitRule | undefined, intent: Intent): LimitBreach | undefined {
  if (rule === undefined || compareDecimals(intent.amount, rule.amount) <= 0) return undefined;
  return { kind: 'approvalOver', rule, sumSoFar: '0', amount: intent.amount, whose: undefined };
}

// Earlier payments this one would repeat: the same service, account, amount (`1500` = `1500.00`) and InvoiceId,
// at or after `since`, not failed.
export function duplicatesOf(intent: Intent, payments: readonly RecentPayment[], since: Date): RecentPayment[] {
  return payments.filter(
    ({ intent: earlier, state }) =>
      state !== 'failed' &&
      earlier.transactionId !== intent.transactionId &&
      Date.parse(earlier.at) >= since.getTime() &&
      earlier.service === intent.service &&
      earlier.account === intent.account &&
      earlier.invoiceId === intent.invoiceId &&
      earlier.currency === intent.currency &&
      sameDecimal(earlier.amount, intent.amount),
  );
}

/** One line for a person: which limit, what it is and who set it, the sum so far and the amount. */
export function breachText({ kind, rule, sumSoFar, amount, whose }: LimitBreach, said: Catalogue = t()): string {
  const { desk } = said;
  const limit = desk.limit(desk.limitNames[kind], rule.amount, rule.currency, desk.setBy(rule.setBy));
  if (kind === 'maxAmount' || kind === 'approvalOver') return desk.overSingle(amount, rule.currency, limit);
  const of = kind === 'dailyLimit' ? desk.operatorToday(whose ?? '') : desk.accountToday(whose ?? '');
  return desk.overDaily(amount, rule.currency, of, sumSoFar, addDecimals(sumSoFar, amount), limit);
}

/** An earlier payment as a person needs it to decide: when, who, its TransactionID and state. */
export function duplicateText(
  { intent, state }: RecentPayment,
  now: Date,
  said: Catalogue = t(),
  as: 'subject' | 'object' = 'subject',
): string {
  const ago = Math.max(0, Math.round((now.getTime() - Date.parse(intent.at)) / 60_000));
  const { transactionId: id, amount, currency, account, service, operator } = intent;
  return said.desk.duplicate(
    { id, amount, currency, account, service, when: said.desk.minutesAgo(ago), operator, state: state ?? undefined },
    as,
  );
}
