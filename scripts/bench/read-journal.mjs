#!/usr/bin/env node
// Floor for reconcile: read the journal once, as a stream, and split it into lines.
// Usage: node scripts/bench/read-journal.mjs <journal>
import { createReadStream } from 'node:fs';

let lines = 0;
let rest = '';
for await (const chunk of createReadStream(process.argv[2], { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
  const parts = (rest + chunk).split('\n');
  rest = parts.pop();
  lines += parts.length;
}
if (rest !== '') lines++;
process.stdout.write(`${lines} lines\n`);
