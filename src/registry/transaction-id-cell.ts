import { longMax, transactionIdFault } from '../protocol/transaction-id.js';
import { t } from '../run-scope.js';

// Why a TransactionID cell is not one of ours, or undefined: a Long above zero (spec 2.1) without leading
// zeros, so `00001` is never a second row for the ledger's `1`.
export function transactionIdProblem(cell: string): string | undefined {
  const fault = transactionIdFault(cell);
  if (fault === undefined && cell !== '0') return undefined;
  // Worded only for a cell gone wrong: rows are many.
  const said = t().registry;
  switch (fault) {
    case undefined:
      return said.zeroId;
    case 'leadingZero':
      return said.leadingZero(cell.replace(/^0+(?=\d)/, ''));
    case 'tooLarge':
      return said.beyondLong(String(longMax));
    default:
      return said.notId;
  }
}
