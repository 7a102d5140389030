import { longMax, transactionIdFault } from '../protocol/transaction-id.js';

/**
 * Why a TransactionID cell is not one of ours, or undefined when it is: a Long (spec 2.1,
 * protocol/transaction-id.ts) above zero, written without leading zeros, so that `00001` is
 * never a second row for the ledger's `1`.
 */
export function transactionIdProblem(cell: string): string | undefined {
  switch (transactionIdFault(cell)) {
    case undefined:
      return cell === '0' ? 'is not a TransactionID: 0 names no transaction' : undefined;
    case 'leadingZero':
      return `is written with a leading zero: a TransactionID is written without (${cell.replace(/^0+(?=\d)/, '')})`;
    case 'tooLarge':
      return `is beyond a signed 64-bit Long (at most ${longMax}): not a TransactionID`;
    default:
      return 'is not a TransactionID (digits only: a signed 64-bit Long)';
  }
}
