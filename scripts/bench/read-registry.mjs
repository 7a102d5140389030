#!/usr/bin/env node
// Floor for `reconcile --registry`: read the registry once, as a stream split into lines, and
// every record of the SQLite ledger once (what any comparison of the two must at least do).
// Usage: node scripts/bench/read-registry.mjs <registry> <ledger.sqlite>
import { createReadStream } from 'node:fs';
import { readLedgerOnce } from './ledger-records.mjs';

let lines = 0;
let rest = '';
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
  const parts = (rest + chunk).split('\n');
  rest = parts.pop();
  lines += parts.length;
}
if (rest !== '') lines++;
process.stdout.write(`${lines} lines, ${readLedgerOnce(process.argv[3])} records\n`);
