import { UsageError } from '../errors.js';
import { t } from '../i18n/current.js';
import type { PostgresLedger } from '../ledger/postgres/postgres-ledger.js';
import type { PurchaseContext } from './session.js';

/** The team ledger shifts are kept in; a journal file is told it has none (exit 2). */
export async function shiftLedgerOf(context: Pick<PurchaseContext, 'openLedger'>): Promise<PostgresLedger> {
  const ledger = await context.openLedger();
  if (ledger.location.kind !== 'postgres') throw new UsageError(t().shifts.teamLedgerOnly);
  return ledger as PostgresLedger;
}

/**
 * With the profile's `shifts: true`, a payment needs the operator role's open shift
 * (docs/desk-safety.md, Shifts): refused before anything is recorded or sent (exit 2).
 */
export async function requireOpenShift(context: Pick<PurchaseContext, 'openLedger' | 'settings'>): Promise<void> {
  if (!context.settings.desk.shifts) return;
  const ledger = await shiftLedgerOf(context);
  const { openShiftOf } = await import('../ledger/postgres/shifts.js');
  if ((await openShiftOf(ledger)) !== undefined) return;
  throw new UsageError(t().shifts.outside(ledger.recordsAs ?? context.settings.operator.value), {
    hint: t().shifts.noShiftHint,
  });
}
