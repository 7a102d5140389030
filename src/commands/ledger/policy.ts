import { UsageError } from '../../errors.js';
import { optionRecord } from '../../options/values.js';
import { t } from '../../run-scope.js';
import { amountsPerCurrency } from '../../settings/parsers.js';
import type { CommandContext } from '../context.js';
import { refused } from './operators.js';
import { administration } from './run.js';

/** `agentpay ledger policy`: shows, or with the administrator's URL sets, the rules the database
 * applies to every intent (docs/desk-safety.md). Not --approval-over: that global flag is one run's. */
export async function runPolicy(raw: unknown, context: CommandContext): Promise<void> {
  const options = optionRecord(raw);
  const approvalOver =
    options.approvalThreshold === undefined
      ? new Map<string, string>()
      : amountsPerCurrency('--approval-threshold')(String(options.approvalThreshold), 'flag');
  if (approvalOver.has('*'))
    throw new UsageError(t().ledger.policyNeedsCurrency, { hint: t().ledger.policyNeedsCurrencyHint });
  const clearApprovalOver = String(options.clearApprovalThreshold ?? '')
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code !== '');
  const shiftsRequired = options.shifts === undefined ? undefined : options.shifts === 'required';
  const { out } = context;
  const admin = await administration(context, 'policy');
  try {
    if (approvalOver.size > 0 || clearApprovalOver.length > 0 || shiftsRequired !== undefined)
      await admin
        .changePolicy({ approvalOver, clearApprovalOver, shiftsRequired })
        .catch((error) => refused(error, 'policy'));
    const now = await admin.policy();
    if (out.json) return out.data(JSON.stringify({ ledger: admin.shown, ...now }));
    const { policyText } = await import('../../render/policy.js');
    out.data(policyText(now, t()));
  } finally {
    await admin.close();
  }
}
