#!/usr/bin/env node
// Floor for `check`: bare node:http sends the same AccountCheck form agentpay sends (spec 4.1),
// parses the answer and each voucher's FieldValue, and prints one JSON line.
// Usage: node scripts/bench/check-one.mjs <base-url> <service> <account> <currency>
import { exchange } from './exchange.mjs';

const [baseUrl, service, account, currency] = process.argv.slice(2);
const answer = await exchange(baseUrl, 'AccountCheck', { service, amount: '0', currency, account });
const vouchers = (answer.TransactionContent?.Extras ?? []).map((item) => JSON.parse(item.FieldValue));
process.stdout.write(`${JSON.stringify({ status: String(answer.ResponseStatus), vouchers, envelope: answer })}\n`);
process.exit(0);
