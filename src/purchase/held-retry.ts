import type { Ledger, Owner } from '../ledger/ledger.js';
import { differingParameters } from '../ledger/records.js';
import type { PurchaseChoice, PurchaseRequest } from './voucher-choice.js';

// A safe retry's voucher from the ledger, which holds that TransactionID for the same purchase: no AccountCheck,
// as the gateway may list it no more. The intent's own check still refuses any difference.
export async function heldVoucher(
  openLedger: () => Promise<Ledger>,
  owner: Owner,
  request: PurchaseRequest & { txnId?: string | undefined },
): Promise<PurchaseChoice | undefined> {
  const { txnId, invoiceId, amount } = request;
  if (txnId === undefined || invoiceId === undefined || amount === undefined) return undefined;
  const [held] = await (await openLedger()).transaction(txnId, owner);
  const intent = held?.intent;
  const { service, account, currency } = request;
  const asked = { ...owner, transactionId: txnId, service, account, currency, invoiceId, amount };
  if (intent === undefined || differingParameters(intent, asked).length > 0) return undefined;
  const voucher = { position: 0, fieldName: '', invoiceId, orderAmount: amount, name: intent.voucher ?? '' };
  return { kind: 'voucher', voucher };
}
