import { expect } from 'vitest';
import { openLedgerAdministration } from '../../src/ledger/open-ledger.js';
import { parseLedgerLocation } from '../../src/ledger-location.js';
import { passwordOf } from './desk-roles.js';

/**
 * A desk's people added as desk-roles.ts addOperator adds each (`ledger add-operator`'s code: the
 * role new, then made), all in one administrator's session rather than one each. That command
 * runs through the bin in desk-operators.test.ts.
 */
export async function addOperators(
  adminEnv: Record<string, string>,
  people: readonly { role: string; supervisor?: boolean }[],
): Promise<void> {
  const location = parseLedgerLocation(adminEnv.AGENTPAY_LEDGER!, 'AGENTPAY_LEDGER');
  if (location.kind !== 'postgres') throw new Error(`not a team ledger: ${location.shown}`);
  const admin = await openLedgerAdministration(location, adminEnv);
  try {
    for (const { role, supervisor = false } of people) {
      expect(await admin.roleExists(role), role).toBe(false);
      await admin.addOperator(role, supervisor, passwordOf(role));
    }
  } finally {
    await admin.close();
  }
}
