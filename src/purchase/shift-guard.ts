import { DeskRuleRefusedError } from '../desk-rule-error.js';
import { t } from '../run-scope.js';
import type { PurchaseContext } from './session.js';
import { teamLedgerOf } from './team-ledger.js';

/** With the profile's `shifts: true`, or the team ledger's policy, a payment needs the role's open
 * shift (docs/desk-safety.md, Shifts): refused before anything is recorded or sent (exit 7). The
 * database checks it again where the intent is written. */
export async function requireOpenShift(context: Pick<PurchaseContext, 'openLedger' | 'settings'>): Promise<void> {
  const byProfile = context.settings.desk.shifts;
  if (!byProfile && !(await (await context.openLedger()).team?.policy())?.shiftsRequired) return;
  const ledger = await teamLedgerOf(context, 'shifts');
  if ((await ledger.team.shifts.current()) !== undefined) return;
  const role = ledger.recordsAs ?? context.settings.operator.value;
  throw new DeskRuleRefusedError('shift', byProfile ? t().shifts.outside(role) : t().shifts.outsideByLedger(role), {
    hint: t().shifts.noShiftHint,
  });
}
