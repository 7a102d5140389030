#!/usr/bin/env node
// Floor for `pay --invoice-id`: bare node:http makes the same two exchanges agentpay makes on
// one keep-alive connection: an AccountCheck for the voucher list (spec 4.1), then the Payment
// of the voucher's OrderAmount with its InvoiceId (spec 4.2). Prints one JSON line.
// Usage: node scripts/bench/pay-invoice.mjs <base-url> <service> <account> <currency> <invoice-id>
import { exchange, freshTransactionId } from './exchange.mjs';

const [baseUrl, service, account, currency, invoiceId] = process.argv.slice(2);
const check = await exchange(baseUrl, 'AccountCheck', { service, amount: '0', currency, account });
const voucher = (check.TransactionContent?.Extras ?? [])
  .map((item) => JSON.parse(item.FieldValue))
  .find((v) => String(v.InvoiceId) === invoiceId);
if (!voucher) throw new Error(`invoice ${invoiceId} is not in the list`);
const transactionId = freshTransactionId();
const paid = await exchange(baseUrl, 'Payment', {
  service,
  amount: voucher.OrderAmount,
  currency,
  account,
  transactionId,
  invoiceId,
});
process.stdout.write(
  `${JSON.stringify({ transactionId, status: String(paid.ResponseStatus), message: paid.Message })}\n`,
);
process.exit(0);
