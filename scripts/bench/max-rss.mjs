// Loaded with `node --import` by the bench and the scale tests: records this process's peak
// resident set size, in kilobytes, to $AGENTPAY_BENCH_RSS_FILE as it exits. On Linux from
// /proc/self/status (VmHWM): getrusage's maxRSS carries the parent's peak across fork, so a
// child of a large test worker reported the worker's size, not its own.
import { readFileSync, writeFileSync } from 'node:fs';

function peakKilobytes() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => writeFileSync(process.env.AGENTPAY_BENCH_RSS_FILE, `${peakKilobytes()}\n`));
