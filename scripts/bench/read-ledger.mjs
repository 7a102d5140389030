#!/usr/bin/env node
// Floor for reconcile: read every record of the SQLite ledger once (node:sqlite, one SELECT of
// the records with their transactions, stepped row by row), as `ledger export` reads them.
// Usage: node scripts/bench/read-ledger.mjs <ledger.sqlite>
import { readLedgerOnce } from './ledger-records.mjs';

process.stdout.write(`${readLedgerOnce(process.argv[2])} records\n`);
