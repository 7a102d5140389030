// Loaded with `node --import` by the bench where GNU time is missing: records this process's
// peak resident set size (getrusage, in kilobytes) to $AGENTPAY_BENCH_RSS_FILE as it exits.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.AGENTPAY_BENCH_RSS_FILE, `${process.resourceUsage().maxRSS}\n`));
