import { type Catalogue, en } from '../i18n/en.js';
import type { LedgerPolicy } from '../ledger/team-ledger.js';
import { shownText } from './sanitize.js';

/** `agentpay ledger policy`: the team ledger's rules, a line each. */
export function policyText(policy: LedgerPolicy, said: Catalogue = en): string {
  const { ledger } = said;
  const thresholds =
    policy.approvalOver.length === 0
      ? [ledger.policyNoThreshold]
      : policy.approvalOver.map(({ currency, over, setBy }) =>
          ledger.policyThreshold(said.amount(over), currency, shownText(setBy)),
        );
  return [...thresholds, policy.shiftsRequired ? ledger.policyShiftsRequired : ledger.policyShiftsOptional].join('\n');
}
