#!/usr/bin/env node
// Floor for `reconcile --registry`: read the registry and the journal once each, as streams,
// and split them into lines (what any comparison of the two must at least do).
// Usage: node scripts/bench/read-registry.mjs <registry> <journal>
import { createReadStream } from 'node:fs';

let lines = 0;
for (const path of process.argv.slice(2, 4)) {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    lines += parts.length;
  }
  if (rest !== '') lines++;
}
process.stdout.write(`${lines} lines\n`);
