import { UsageError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import type { TeamLedger } from '../ledger/team-ledger.js';
import { t } from '../run-scope.js';
import type { PurchaseContext } from './session.js';

/** The ledger with its team capabilities (ledger/team-ledger.ts), asked for by what a command needs. */
export type WithTeam = Ledger & { readonly team: TeamLedger };

/** What a ledger without them says, in one line: what they need (exit 2, nothing sent or changed). */
const cannot = { approvals: () => t().approvals.teamLedgerOnly, shifts: () => t().shifts.teamLedgerOnly };

export async function teamLedgerOf(
  context: Pick<PurchaseContext, 'openLedger'>,
  need: keyof typeof cannot,
): Promise<WithTeam> {
  const ledger = await context.openLedger();
  if (ledger.team !== undefined) return ledger as WithTeam;
  const { location } = ledger;
  const play = location.kind === 'file' ? location.play : undefined;
  throw new UsageError(play === undefined ? cannot[need]() : t().approvals.playMoney(play));
}
