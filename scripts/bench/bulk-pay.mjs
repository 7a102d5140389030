#!/usr/bin/env node
// Floor for `pay --from-file` (target 12): bare node:http makes the same exchanges agentpay
// makes for a file of dynamic-voucher orders, `concurrency` at a time on keep-alive
// connections: an AccountCheck per row (spec 4.1), then each row's Payment of its voucher's
// OrderAmount (spec 4.2). No ledger, no results file, no checks. Prints one JSON line a row.
// Usage: node scripts/bench/bulk-pay.mjs <base-url> <orders.csv> <concurrency>
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { exchange, freshTransactionId } from './exchange.mjs';

const [baseUrl, ordersPath, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const [header, ...lines] = readFileSync(ordersPath, 'utf8').trim().split('\n');
const columns = header.split(',');
const rows = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i], cell])));

async function inPool(items, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

await inPool(rows, async (row) => {
  const check = await exchange(
    baseUrl,
    'AccountCheck',
    { service: row.service, amount: '0', currency: 'KZT', account: row.account },
    agent,
  );
  row.voucher = (check.TransactionContent?.Extras ?? [])
    .map((item) => JSON.parse(item.FieldValue))
    .find((v) => String(v.InvoiceId) === row['invoice-id']);
  if (!row.voucher) throw new Error(`invoice ${row['invoice-id']} is not in the list`);
});
const out = [];
await inPool(rows, async (row) => {
  const transactionId = freshTransactionId();
  const paid = await exchange(
    baseUrl,
    'Payment',
    {
      service: row.service,
      amount: row.voucher.OrderAmount,
      currency: 'KZT',
      account: row.account,
      transactionId,
      invoiceId: row['invoice-id'],
    },
    agent,
  );
  out.push(`${JSON.stringify({ key: row.key, transactionId, status: String(paid.ResponseStatus) })}\n`);
});
process.stdout.write(out.join(''));
process.exit(0);
