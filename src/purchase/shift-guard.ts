import { DeskRuleRefusedError } from '../desk-rule-error.js';
import { UsageError } from '../errors.js';
import type { PostgresLedger } from '../ledger/postgres/postgres-ledger.js';
import { t } from '../run-scope.js';
import type { PurchaseContext } from './session.js';

/** The team ledger shifts are kept in; a journal file is told it has none (exit 2). */
export async function shiftLedgerOf(context: Pick<PurchaseContext, 'openLedger'>): Promise<PostgresLedger> {
  const ledger = await context.openLedger();
  if (ledger.location.kind !== 'postgres') {
    const { play } = ledger.location;
    throw new UsageError(
      t().shifts.teamLedgerOnly,
      play === undefined ? {} : { hint: t().approvals.playMoneyHint(play) },
    );
  }
  return ledger as PostgresLedger;
}

/**
 * With the profile's `shifts: true`, or the team ledger's policy, a payment needs the operator
 * role's open shift (docs/desk-safety.md, Shifts): refused before anything is recorded or sent
 * (exit 7). The database checks it again where the intent is written.
 */
export async function requireOpenShift(context: Pick<PurchaseContext, 'openLedger' | 'settings'>): Promise<void> {
  const byProfile = context.settings.desk.shifts;
  if (!byProfile && !(await (await context.openLedger()).ledgerPolicy?.())?.shiftsRequired) return;
  const ledger = await shiftLedgerOf(context);
  const { openShiftOf } = await import('../ledger/postgres/shifts.js');
  if ((await openShiftOf(ledger)) !== undefined) return;
  const role = ledger.recordsAs ?? context.settings.operator.value;
  throw new DeskRuleRefusedError('shift', byProfile ? t().shifts.outside(role) : t().shifts.outsideByLedger(role), {
    hint: t().shifts.noShiftHint,
  });
}
