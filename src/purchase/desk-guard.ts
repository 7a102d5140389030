import { DeskRuleRefusedError } from '../desk-rule-error.js';
import type { Intent, IntentGuard, Ledger, RecentPayment } from '../ledger/ledger.js';
import { t } from '../run-scope.js';
import type { Settings } from '../settings/resolve.js';
import {
  approvalBreach,
  breachText,
  duplicatesOf,
  duplicateText,
  type LimitBreach,
  limitBreaches,
  lookBackOf,
  thresholdBreach,
} from './desk-rules.js';

// The desk's limits and duplicate check before anything is sent (docs/desk-safety.md), read from whichever
// ledger is configured: with PostgreSQL they hold across the desk.

/** What a command lets through. */
export interface DeskPolicy {
  /** --over-limit: a payment over a limit goes, and the ledger records that it did. */
  overLimit: boolean;
  /** 'refuse' (pay), 'allow' (--allow-duplicate, or buy once told), 'skip' (a scenario's test payments). */
  duplicates: 'refuse' | 'allow' | 'skip';
}

export interface DeskFindings {
  breaches: LimitBreach[];
  duplicates: RecentPayment[];
  /** Over the approval threshold: a second person must approve it first. */
  approval?: LimitBreach | undefined;
}

type DeskContext = { settings: Pick<Settings, 'desk' | 'operator'> };

const windowOf = (context: DeskContext, policy: DeskPolicy) =>
  policy.duplicates === 'skip' ? 0 : context.settings.desk.duplicateWindowMs.value;

/** What the ledger is asked for this purchase's rules (desk-rules.ts), or undefined when no rule reads it. */
const lookBackFor = (context: DeskContext, intent: Intent, policy: DeskPolicy, now: Date) =>
  lookBackOf(context.settings.desk, context.settings.operator.value, [intent.currency], windowOf(context, policy), now);

/** What the rules find for this purchase among these recent payments. */
function findingsOf(
  context: DeskContext,
  intent: Intent,
  policy: DeskPolicy,
  payments: readonly RecentPayment[],
  now: Date,
): DeskFindings {
  const windowMs = windowOf(context, policy);
  return {
    breaches: limitBreaches(context.settings.desk, intent, context.settings.operator.value, payments, now),
    duplicates: windowMs > 0 ? duplicatesOf(intent, payments, new Date(now.getTime() - windowMs)) : [],
    approval: approvalBreach(context.settings.desk, intent),
  };
}

// The team ledger's own threshold (ledger.ts team), applied by its database at the intent whatever the
// profile says: found here too, so a person is told before a question.
async function ledgerApprovalBreach(ledger: Ledger, intent: Intent): Promise<LimitBreach | undefined> {
  const threshold = (await ledger.team?.policy())?.approvalOver.find(({ currency }) => currency === intent.currency);
  if (threshold === undefined) return undefined;
  return thresholdBreach(
    { amount: threshold.over, currency: intent.currency, setBy: { ledger: threshold.setBy } },
    intent,
  );
}

/** What the rules find for this purchase, with the team ledger's threshold where it has one. */
export async function deskFindings(
  context: DeskContext,
  ledger: () => Promise<Ledger>,
  intent: Intent,
  policy: DeskPolicy,
  now = new Date(),
): Promise<DeskFindings> {
  const look = lookBackFor(context, intent, policy, now);
  const payments =
    look === undefined
      ? []
      : await (await ledger()).recentPayments({
          gateway: intent.gateway,
          agentId: intent.agentId,
          accounts: [intent.account],
          ...look,
        });
  const findings = findingsOf(context, intent, policy, payments, now);
  findings.approval ??= await ledgerApprovalBreach(await ledger(), intent);
  return findings;
}

// The desk's rules for this purchase, applied by the ledger in one step with the intent (ledger.ts IntentGuard)
// so two terminals paying the same cannot both pass. Undefined when no rule reads the ledger.
export function deskGuard(
  context: DeskContext,
  intent: Intent,
  policy: DeskPolicy,
  now = new Date(),
): IntentGuard | undefined {
  const look = lookBackFor(context, intent, policy, now);
  if (look === undefined) return undefined;
  const { desk } = context.settings;
  const sums =
    desk.limit('dailyLimit', intent.currency) !== undefined ||
    desk.limit('accountDailyLimit', intent.currency) !== undefined;
  return {
    ...look,
    sums,
    decide: (recent, at) => enforceDesk(findingsOf(context, intent, policy, recent, at), policy, at),
  };
}

/** The rules that read nothing of the ledger (the limit for one payment), when deskGuard gave none. */
export function enforceDeskAlone(context: DeskContext, intent: Intent, policy: DeskPolicy, now = new Date()): string[] {
  return enforceDesk(findingsOf(context, intent, policy, [], now), policy, now);
}

// Refuses what the policy does not let through (exit 7, nothing sent); otherwise the guards lifted for this
// payment's intent: "over-limit", "allow-duplicate".
export function enforceDesk(findings: DeskFindings, policy: DeskPolicy, now = new Date()): string[] {
  const lifted: string[] = [];
  if (findings.approval !== undefined) {
    throw new DeskRuleRefusedError('approval', t().approvals.needed(breachText(findings.approval)), {
      hint: t().approvals.neededHint,
    });
  }
  if (findings.breaches.length > 0) {
    if (!policy.overLimit) {
      const breaches = findings.breaches.map((breach) => breachText(breach)).join('; ');
      throw new DeskRuleRefusedError('limit', t().desk.refusedLimits(breaches), { hint: t().desk.refusedLimitsHint });
    }
    lifted.push('over-limit');
  }
  if (findings.duplicates.length > 0 && policy.duplicates !== 'skip') {
    if (policy.duplicates === 'refuse') {
      const [latest] = findings.duplicates.slice(-1);
      throw new DeskRuleRefusedError(
        'duplicate',
        t().desk.refusedDuplicate(
          findings.duplicates.length,
          findings.duplicates.map((payment) => duplicateText(payment, now)).join('; '),
        ),
        {
          hint: t().desk.refusedDuplicateHint(latest!.intent.transactionId),
        },
      );
    }
    lifted.push('allow-duplicate');
  }
  return lifted;
}
